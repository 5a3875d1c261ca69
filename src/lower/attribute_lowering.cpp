#include "lower/attribute_lowering.hpp"

#include <array>
#include <variant>

#include <fmt/format.h>

#include "lower/constraint_lowering.hpp"
#include "lower/dependency_lowering.hpp"
#include "lower/expect_kind.hpp"
#include "support/json_kinds.hpp"

namespace jobspec::lower {

namespace {

using support::JsonPointer;
using support::PointerScope;
using syntax::DocNode;
using Kind = DocNode::Kind;

class AttributeLowering {
public:
    AttributeLowering(JsonPointer& pointer, Diagnostics& diagnostics, Dialect dialect)
        : ptr_(pointer), diags_(diagnostics), dialect_(dialect) {}

    std::optional<AttributeValue> value(std::string_view key, const DocNode& n,
                                        AttributeScope scope) {
        const std::string what = fmt::format("'{}'", key);
        if (scope == AttributeScope::task) {
            if (key == "environment")
                return environment(n);
            if (!expect(n, Kind::string, fmt::format("task attribute '{}'", key)))
                return std::nullopt;
            return boost::json::value(n.text());
        }
        if (key == "duration" || key == "preemptible-after") {
            if (!expect(n, Kind::real, what))
                return std::nullopt;
            return number(n);
        }
        if (key == "cwd" || key == "queue" || key == "bank" || key == "project") {
            if (!expect(n, Kind::string, what))
                return std::nullopt;
            return n.text();
        }
        if (key == "environment")
            return environment(n);
        if (key == "dependencies")
            return dependencies(n);
        if (key == "constraints") {
            const std::size_t errors = diags_.error_count();
            Constraint c = lower_constraint(n, ptr_, diags_, dialect_);
            if (diags_.error_count() > errors)
                return std::nullopt;
            return c;
        }
        if (key == "job" && !job(n))
            return std::nullopt;
        if (key == "shell" && !shell(n))
            return std::nullopt;
        if (key == "files" && !expect(n, Kind::mapping, what))
            return std::nullopt;
        return n.to_json();
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }

    bool expect(const DocNode& n, Kind kind, std::string_view what) {
        return expect_kind(n, kind, what, ptr_, diags_);
    }

    static Number number(const DocNode& n) {
        switch (n.kind()) {
        case Kind::integer:
            return n.integer();
        case Kind::uinteger:
            return n.uinteger();
        default:
            return n.real();
        }
    }

    std::optional<AttributeValue> environment(const DocNode& n) {
        if (!expect(n, Kind::mapping, "'environment'"))
            return std::nullopt;
        Environment env;
        bool ok = true;
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            if (m.value.is_string()) {
                env.push_back({m.key, m.value.text(), m.key_range, m.value.range});
            } else if (m.value.kind() == Kind::null) {
                env.push_back({m.key, std::nullopt, m.key_range, m.value.range});
            } else {
                report(Code::jobspec_key_type,
                       fmt::format("environment variable '{}' must be a string or null, not {}",
                                   m.key, syntax::describe(m.value.kind())),
                       m.value.range);
                ok = false;
            }
        }
        if (!ok)
            return std::nullopt;
        return env;
    }

    std::optional<AttributeValue> dependencies(const DocNode& n) {
        if (!expect(n, Kind::sequence, "'dependencies'"))
            return std::nullopt;
        if (n.elements().empty())
            report(Code::jobspec_dependency, "'dependencies' must not be empty", n.range,
                   "leave the attribute out when there are no dependencies (RFC 26)");
        std::vector<Dependency> out;
        bool ok = true;
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            const DocNode& d = n.elements()[i];
            if (!expect(d, Kind::mapping, "a dependency")) {
                ok = false;
                continue;
            }
            for (const auto key : {"scheme", "value"}) {
                const auto* field = d.find(key);
                if (field == nullptr) {
                    report(Code::jobspec_dependency, fmt::format("dependency has no '{}'", key),
                           d.range);
                    ok = false;
                } else if (!field->value.is_string()) {
                    PointerScope field_at(ptr_, key);
                    report(Code::jobspec_dependency,
                           fmt::format("dependency '{}' must be a string, not {}", key,
                                       syntax::describe(field->value.kind())),
                           field->value.range);
                    ok = false;
                }
            }
            out.push_back(dependency_from_object(d));
        }
        if (!ok)
            return std::nullopt;
        return out;
    }

    bool job(const DocNode& n) {
        if (!expect(n, Kind::mapping, "'job'"))
            return false;
        bool ok = true;
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            ok = expect(m.value, Kind::string, fmt::format("job attribute '{}'", m.key)) && ok;
        }
        return ok;
    }

    bool shell(const DocNode& n) {
        if (!expect(n, Kind::mapping, "'shell'"))
            return false;
        const auto* options = n.find("options");
        if (options == nullptr)
            return true;
        PointerScope at(ptr_, "options");
        return expect(options->value, Kind::mapping, "shell 'options'");
    }

    JsonPointer& ptr_;
    Diagnostics& diags_;
    Dialect dialect_;
};

/// What an attribute value is, for messages: "a number", "a string", "a list", ...
std::string_view describe_value(const AttributeValue& v) {
    using boost::json::kind;
    struct Describe {
        std::string_view operator()(const boost::json::value& j) const {
            return support::describe(j.kind());
        }
        std::string_view operator()(const Number&) const {
            return support::describe(kind::double_);
        }
        std::string_view operator()(const std::string&) const {
            return support::describe(kind::string);
        }
        std::string_view operator()(const Environment&) const {
            return support::describe(kind::object);
        }
        std::string_view operator()(const std::vector<Dependency>&) const {
            return support::describe(kind::array);
        }
        std::string_view operator()(const Constraint&) const {
            return support::describe(kind::object);
        }
    };
    return std::visit(Describe{}, v);
}

/// What RFC 14's type for a system attribute is called, by its AttributeValue index.
std::string_view describe_type(std::size_t index) {
    static constexpr std::array<std::string_view, 6> names = {
        "any JSON value", "a number", "a string", "a dictionary", "a list", "a dictionary"};
    return names[index];
}

} // namespace

std::optional<AttributeValue> lower_attribute(std::string_view key, const DocNode& n,
                                              AttributeScope scope, JsonPointer& pointer,
                                              Diagnostics& diagnostics, Dialect dialect) {
    return AttributeLowering(pointer, diagnostics, dialect).value(key, n, scope);
}

AttributeList lower_attribute_list(const DocNode& n, AttributeScope scope, JsonPointer& pointer,
                                   Diagnostics& diagnostics, Dialect dialect) {
    AttributeList list;
    list.range = n.range;
    for (const auto& m : n.members()) {
        PointerScope at(pointer, m.key);
        auto value = lower_attribute(m.key, m.value, scope, pointer, diagnostics, dialect);
        list.entries.push_back(
            {m.key, value ? std::move(*value) : m.value.to_json(), m.key_range, m.value.range});
    }
    return list;
}

void check_attribute_structure(const Jobspec& jobspec, Diagnostics& diagnostics) {
    JsonPointer pointer;
    const auto check = [&](const AttributeList& list, AttributeScope scope) {
        for (const auto& a : list.entries) {
            PointerScope at(pointer, a.key);
            if (const auto* json = std::get_if<boost::json::value>(&a.value)) {
                (void)lower_attribute(a.key, DocNode::from_json(*json), scope, pointer,
                                      diagnostics);
                continue;
            }
            const std::size_t type =
                scope == AttributeScope::system
                    ? system_attribute_type(a.key)
                    : (a.key == "environment" ? system_attribute_type("environment") : 0);
            if (a.value.index() != type)
                diagnostics.add(Code::jobspec_key_type,
                                fmt::format("'{}' must be {}, not {}", a.key, describe_type(type),
                                            describe_value(a.value)),
                                Location{{}, pointer.str()});
        }
    };
    if (jobspec.attributes.system) {
        PointerScope at(pointer, "attributes", "system");
        check(*jobspec.attributes.system, AttributeScope::system);
    }
    for (std::size_t i = 0; i < jobspec.tasks.size(); ++i)
        if (jobspec.tasks[i].attributes) {
            PointerScope at(pointer, "tasks", i, "attributes");
            check(*jobspec.tasks[i].attributes, AttributeScope::task);
        }
}

} // namespace jobspec::lower
