#include "lower/jobspec_lowering.hpp"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "lower/attribute_lowering.hpp"
#include "lower/expect_kind.hpp"
#include "model/codec_codes.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::lower {

namespace {

using syntax::DocMember;
using syntax::DocNode;
using Kind = DocNode::Kind;
using support::JsonPointer;
using support::PointerScope;

constexpr std::array<std::string_view, 4> top_level_keys = {"version", "resources", "tasks",
                                                            "attributes"};
constexpr std::array<std::string_view, 4> range_keys = {"min", "max", "operator", "operand"};
constexpr std::array<std::string_view, 3> task_count_keys = {"per_slot", "per_resource", "total"};
/// The vertex keys Fluxion's reader takes besides type, count and with.
constexpr std::array<std::string_view, 4> fluxion_vertex_keys = {"unit", "exclusive", "label",
                                                                 "id"};
constexpr std::int64_t fluxion_max_version = 9999;
/// Fluxion reads counts, min and max as unsigned int and an operand as int.
constexpr std::uint64_t fluxion_max_count = UINT32_MAX;
constexpr std::uint64_t fluxion_max_operand = INT32_MAX;

/// What Fluxion's reader says of these, in documents and in resources built in code.
std::string fluxion_key_message(std::string_view key) {
    return fmt::format("Fluxion refuses the vertex key '{}' (it reads type, count, with, unit, "
                       "exclusive, label and id)",
                       key);
}
std::string fluxion_string_count_message(std::string_view text) {
    return fmt::format("Fluxion reads a count as an integer or a dictionary, not the string '{}'",
                       text);
}
constexpr std::string_view fluxion_string_count_help =
    "write a range as {min, max, operator, operand}";
std::string fluxion_bound_message(std::string_view what, std::uint64_t most, std::uint64_t value) {
    return fmt::format("Fluxion reads {} up to {}, not {}", what, most, value);
}
constexpr std::string_view fluxion_partial_range_message =
    "Fluxion needs all or none of 'max', 'operator' and 'operand'";
constexpr std::string_view fluxion_partial_range_help =
    "add the missing ones, or keep only 'min' for an unbounded count";

template <std::size_t N>
bool one_of(std::string_view key, const std::array<std::string_view, N>& keys) {
    for (const auto k : keys)
        if (k == key)
            return true;
    return false;
}

class JobspecLowering {
public:
    JobspecLowering(Dialect dialect, Diagnostics& diagnostics) : diags_(diagnostics) {
        out_.dialect = dialect;
    }

    Jobspec document(const DocNode& root) {
        Jobspec& out = out_;
        out.range = root.range;
        if (!expect(root, Kind::mapping, "a jobspec"))
            return out;
        for (const auto key : top_level_keys)
            if (root.find(key) == nullptr)
                report(Code::jobspec_missing_key, fmt::format("missing required key '{}'", key),
                       root.range, "a jobspec has version, resources, tasks and attributes");
        for (const auto& m : root.members()) {
            PointerScope at(ptr_, m.key);
            if (m.key == "version") {
                out.version_range = m.value.range;
                if (expect(m.value, Kind::integer, "'version'")) {
                    out.version = m.value.integer();
                    if (fluxion() && (out.version < 1 || out.version > fluxion_max_version))
                        report(Code::fluxion_version,
                               fmt::format("Fluxion reads versions 1 to {}, not {}",
                                           fluxion_max_version, out.version),
                               m.value.range);
                }
            } else if (m.key == "resources") {
                out.resources = resources(m.value);
            } else if (m.key == "tasks") {
                tasks(m.value, out.tasks);
            } else if (m.key == "attributes") {
                attributes(m.value);
            } else if (fluxion()) {
                report(Code::fluxion_key,
                       fmt::format("Fluxion refuses the key '{}' (a jobspec has exactly "
                                   "version, resources, tasks and attributes)",
                                   m.key),
                       m.key_range);
            } else {
                report(Code::jobspec_unknown_key,
                       fmt::format("'{}' is not an RFC 14 jobspec key; it is ignored", m.key),
                       m.key_range);
            }
        }
        return std::move(out_);
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }

    bool expect(const DocNode& n, Kind kind, std::string_view what) {
        return expect_kind(n, kind, what, ptr_, diags_);
    }

    /// A positive integer that fits in 63 bits, or nothing (reported).
    std::optional<std::uint64_t> positive(const DocNode& n, std::string_view what, Code zero) {
        if (!expect(n, Kind::integer, what))
            return std::nullopt;
        if (n.kind() == Kind::uinteger) {
            report(Code::limit_integer,
                   fmt::format("{} {} is larger than {}", what, n.uinteger(), INT64_MAX), n.range);
            return std::nullopt;
        }
        if (n.integer() < 1) {
            report(zero, fmt::format("{} must be at least 1, not {}", what, n.integer()), n.range);
            return std::nullopt;
        }
        return static_cast<std::uint64_t>(n.integer());
    }

    /// In the Fluxion dialect, whether `value` fits the integer Fluxion reads it into
    /// (reported when not); always true otherwise.
    bool fits_fluxion(std::uint64_t value, std::uint64_t most, std::string_view what,
                      SourceRange range) {
        if (!fluxion() || value <= most)
            return true;
        report(Code::fluxion_count, fluxion_bound_message(what, most, value), range);
        return false;
    }

    ResourceList resources(const DocNode& n) {
        ResourceList out;
        if (!expect(n, Kind::sequence, "'resources'"))
            return out;
        if (n.elements().empty())
            report(Code::jobspec_empty_list, "'resources' must list at least one vertex", n.range);
        list(n, out);
        return out;
    }

    void list(const DocNode& n, ResourceList& out) {
        out.reserve(n.elements().size());
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            out.push_back(vertex(n.elements()[i]));
        }
    }

    ResourceVertex vertex(const DocNode& n) {
        ResourceVertex v;
        v.range = n.range;
        if (!expect(n, Kind::mapping, "a resource vertex"))
            return v;
        if (n.find("type") == nullptr)
            report(Code::jobspec_missing_key, "resource vertex has no 'type'", n.range);
        if (n.find("count") == nullptr)
            report(Code::jobspec_missing_key, "resource vertex has no 'count'", n.range);
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            if (m.key == "type") {
                v.type_range = m.value.range;
                if (expect(m.value, Kind::string, "'type'"))
                    v.type = m.value.text();
            } else if (m.key == "count") {
                v.count_range = m.value.range;
                v.count_is_string = m.value.kind() == Kind::string;
                v.count = count(m.value);
            } else if (m.key == "with") {
                v.has_with = true;
                if (expect(m.value, Kind::sequence, "'with'"))
                    list(m.value, v.with);
            } else {
                if (fluxion() && !one_of(m.key, fluxion_vertex_keys))
                    report(Code::fluxion_key, fluxion_key_message(m.key), m.key_range);
                v.properties.push_back({m.key, m.value.to_json(), m.key_range, m.value.range});
            }
        }
        return v;
    }

    Count count(const DocNode& n) {
        switch (n.kind()) {
        case Kind::integer:
        case Kind::uinteger:
            if (auto fixed = positive(n, "'count'", Code::jobspec_count_not_positive);
                fixed && fits_fluxion(*fixed, fluxion_max_count, "a count", n.range))
                return *fixed;
            return {};
        case Kind::string:
            return count_string(n);
        case Kind::mapping:
            return count_range(n);
        default:
            report(Code::jobspec_key_type,
                   fmt::format("'count' must be an integer, a string or a dictionary, not {}",
                               syntax::describe(n.kind())),
                   n.range);
            return {};
        }
    }

    /// An RFC 22 idset or RFC 45 range written as a string; errors point into it when the
    /// source shows the string as it is (with or without quotes).
    Count count_string(const DocNode& n) {
        auto parsed = model::decode_count(n.text());
        if (parsed && !fluxion())
            return std::move(*parsed);
        if (parsed && !parsed->is_fixed()) {
            report(Code::fluxion_count, fluxion_string_count_message(n.text()), n.range,
                   std::string(fluxion_string_count_help));
            return {};
        }
        if (parsed)
            return fits_fluxion(parsed->fixed(), fluxion_max_count, "a count", n.range)
                       ? std::move(*parsed)
                       : Count{};
        const auto& e = parsed.error();
        SourceRange at = n.range;
        const std::size_t quotes = n.range.size() == n.text().size() + 2 ? 1 : 0;
        if (n.range.known() && (quotes == 1 || n.range.size() == n.text().size()))
            at = SourceRange{
                static_cast<std::uint32_t>(n.range.begin + quotes + e.offset),
                static_cast<std::uint32_t>(n.range.begin + quotes + e.offset + e.length)};
        report(model::code_of(e.kind, model::CountLanguage::jobspec), e.message, at);
        return {};
    }

    /// The dictionary form: min, and optionally max, operator and operand.
    Count count_range(const DocNode& n) {
        CountRange r;
        bool ok = true;
        const DocMember* op = n.find("operator");
        const DocMember* operand = n.find("operand");
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            if (!one_of(m.key, range_keys)) {
                report(Code::jobspec_forbidden_key,
                       fmt::format("'{}' is not a range key (min, max, operator, operand)", m.key),
                       m.key_range);
                ok = false;
            }
        }
        if (const DocMember* min = n.find("min")) {
            PointerScope at(ptr_, "min");
            auto v = positive(min->value, "range minimum", Code::jobspec_count_not_positive);
            const bool fits =
                v && fits_fluxion(*v, fluxion_max_count, "a minimum", min->value.range);
            ok = ok && fits;
            r.min = v.value_or(1);
        } else {
            report(Code::jobspec_missing_key, "range has no 'min'", n.range);
            ok = false;
        }
        if (const DocMember* max = n.find("max")) {
            PointerScope at(ptr_, "max");
            auto v = positive(max->value, "range maximum", Code::jobspec_range_order);
            const bool fits =
                v && fits_fluxion(*v, fluxion_max_count, "a maximum", max->value.range);
            ok = ok && fits;
            r.max = v;
        }
        if ((op == nullptr) != (operand == nullptr)) {
            report(Code::jobspec_range_step,
                   fmt::format("range has '{}' without '{}'", op ? "operator" : "operand",
                               op ? "operand" : "operator"),
                   (op ? op : operand)->key_range, "RFC 14 needs both or neither");
            ok = false;
        }
        if (op != nullptr) {
            PointerScope at(ptr_, "operator");
            if (expect(op->value, Kind::string, "range operator")) {
                const std::string& t = op->value.text();
                if (t.size() == 1 && (t[0] == '+' || t[0] == '*' || t[0] == '^')) {
                    r.op = static_cast<RangeOperator>(t[0]);
                    r.explicit_step = true;
                } else {
                    report(Code::jobspec_range_operator,
                           fmt::format("unknown range operator '{}' (use '+', '*' or '^')", t),
                           op->value.range);
                    ok = false;
                }
            } else {
                ok = false;
            }
        }
        if (operand != nullptr) {
            PointerScope at(ptr_, "operand");
            auto v = positive(operand->value, "range operand", Code::jobspec_range_operand);
            const bool fits =
                v && fits_fluxion(*v, fluxion_max_operand, "an operand", operand->value.range);
            ok = ok && fits;
            r.operand = v.value_or(1);
        }
        const int bounds = (n.find("max") != nullptr) + (op != nullptr) + (operand != nullptr);
        if (ok && fluxion() && bounds != 0 && bounds != 3) {
            report(Code::fluxion_count, std::string(fluxion_partial_range_message), n.range,
                   std::string(fluxion_partial_range_help));
            return {};
        }
        if (!ok)
            return {};
        if (auto e = model::check_count_range(r)) {
            report(model::code_of(e->kind, model::CountLanguage::jobspec), e->message, n.range);
            return {};
        }
        return r;
    }

    void tasks(const DocNode& n, std::vector<Task>& out) {
        if (!expect(n, Kind::sequence, "'tasks'"))
            return;
        if (n.elements().empty())
            report(Code::jobspec_empty_list, "'tasks' must list at least one task", n.range);
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            out.push_back(task(n.elements()[i]));
        }
    }

    Task task(const DocNode& n) {
        Task t;
        t.range = n.range;
        if (!expect(n, Kind::mapping, "a task"))
            return t;
        for (const auto key : {"command", "slot", "count"})
            if (n.find(key) == nullptr)
                report(Code::jobspec_missing_key, fmt::format("task has no '{}'", key), n.range);
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            const DocNode& v = m.value;
            if (m.key == "command") {
                t.command_range = v.range;
                command(v, t.command);
            } else if (m.key == "slot") {
                t.slot_range = v.range;
                if (expect(v, Kind::string, "'slot'"))
                    t.slot = v.text();
            } else if (m.key == "count") {
                t.count_range = v.range;
                task_count(v, t.count);
            } else if (m.key == "distribution") {
                if (expect(v, Kind::string, "'distribution'"))
                    t.distribution = v.text();
            } else if (m.key == "attributes") {
                if (expect(v, Kind::mapping, "task 'attributes'")) {
                    if (fluxion())
                        scalar_attributes(v);
                    t.attributes = lower_attribute_list(v, AttributeScope::task, ptr_, diags_);
                }
            } else {
                report(Code::jobspec_forbidden_key,
                       fmt::format("'{}' is not a task key ({})", m.key,
                                   "command, slot, count, distribution, attributes"),
                       m.key_range);
            }
        }
        return t;
    }

    void command(const DocNode& n, std::vector<std::string>& out) {
        if (!expect(n, Kind::sequence, "'command'"))
            return;
        if (n.elements().empty())
            report(Code::jobspec_empty_list, "'command' must name a program", n.range);
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            if (expect(n.elements()[i], Kind::string, "a command argument"))
                out.push_back(n.elements()[i].text());
        }
    }

    void task_count(const DocNode& n, TaskCount& out) {
        if (!expect(n, Kind::mapping, "task 'count'"))
            return;
        out.keys = n.members().size();
        const DocMember* chosen = nullptr;
        for (const auto& m : n.members()) {
            if (!one_of(m.key, task_count_keys)) {
                PointerScope at(ptr_, m.key);
                report(Code::jobspec_unknown_key,
                       fmt::format("'{}' is not a task count key RFC 14 defines; it is ignored",
                                   m.key),
                       m.key_range);
                continue;
            }
            if (chosen != nullptr) {
                PointerScope at(ptr_, m.key);
                report(Code::jobspec_task_count,
                       fmt::format("task count has both '{}' and '{}'", chosen->key, m.key),
                       m.key_range, "use exactly one of per_slot, per_resource, total");
                continue;
            }
            chosen = &m;
        }
        if (chosen == nullptr) {
            report(Code::jobspec_task_count,
                   "task count needs one of per_slot, per_resource, total", n.range);
            return;
        }
        PointerScope at(ptr_, chosen->key);
        if (fluxion() && chosen->key == "per_resource") {
            report(Code::fluxion_task, "Fluxion refuses a 'per_resource' task count",
                   chosen->key_range, "count tasks per_slot or in total");
            return;
        }
        if (chosen->key == "per_resource") {
            out.kind = TaskCount::Kind::per_resource;
            per_resource(chosen->value, out);
            return;
        }
        out.kind = chosen->key == "total" ? TaskCount::Kind::total : TaskCount::Kind::per_slot;
        out.count = positive(chosen->value, fmt::format("'{}'", chosen->key),
                             Code::jobspec_count_not_positive)
                        .value_or(1);
    }

    /// Fluxion reads a task's attributes as strings: a list or dictionary is refused.
    void scalar_attributes(const DocNode& n) {
        for (const auto& m : n.members())
            if (m.value.is_mapping() || m.value.is_sequence()) {
                PointerScope at(ptr_, m.key);
                report(Code::fluxion_task,
                       fmt::format("Fluxion reads task attributes as strings, not {}",
                                   syntax::describe(m.value.kind())),
                       m.value.range);
            }
    }

    void per_resource(const DocNode& n, TaskCount& out) {
        if (!expect(n, Kind::mapping, "'per_resource'"))
            return;
        for (const auto key : {"type", "count"})
            if (n.find(key) == nullptr)
                report(Code::jobspec_missing_key, fmt::format("'per_resource' has no '{}'", key),
                       n.range);
        for (const auto& m : n.members()) {
            PointerScope at(ptr_, m.key);
            if (m.key == "type") {
                if (expect(m.value, Kind::string, "'type'"))
                    out.resource_type = m.value.text();
            } else if (m.key == "count") {
                out.count =
                    positive(m.value, "'count'", Code::jobspec_count_not_positive).value_or(1);
            } else {
                report(Code::jobspec_forbidden_key,
                       fmt::format("'{}' is not a per_resource key (type, count)", m.key),
                       m.key_range);
            }
        }
    }

    void attributes(const DocNode& n) {
        out_.attributes.range = n.range;
        out_.attributes.null = n.kind() == Kind::null;
        if (out_.attributes.null)
            return;
        if (!expect(n, Kind::mapping, "'attributes'"))
            return;
        for (const auto& m : n.members())
            attributes_member(m.key, m.key_range, m.value);
    }

public:
    /// One member of `attributes`, read into the jobspec's; the pointer is at `attributes`.
    void attributes_member(const std::string& key, SourceRange key_range, const DocNode& value) {
        PointerScope at(ptr_, key);
        if (key != "system" && key != "user") {
            report(Code::jobspec_forbidden_key,
                   fmt::format("'{}' is not an attributes key (system, user)", key), key_range,
                   "put site or user data under 'system' or 'user'");
            return;
        }
        if (!expect(value, Kind::mapping, fmt::format("'{}'", key))) {
            if (key == "system")
                out_.attributes.system = AttributeList{{}, value.range, false};
            return;
        }
        if (key == "system")
            out_.attributes.system =
                lower_attribute_list(value, AttributeScope::system, ptr_, diags_, out_.dialect);
        else
            out_.attributes.user = value.to_json().as_object();
    }

    JsonPointer& pointer() { return ptr_; }
    Jobspec& out() { return out_; }

    /// A resource list, its pointer pushed by the caller.
    ResourceList resource_list(const DocNode& n) { return resources(n); }

    /// What Fluxion's reader refuses in resources built in code, as they are written out.
    void fluxion_resources(const ResourceList& list) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            PointerScope at(ptr_, i);
            const ResourceVertex& v = list[i];
            for (const auto& p : v.properties)
                if (!one_of(p.key, fluxion_vertex_keys)) {
                    PointerScope key_at(ptr_, p.key);
                    report(Code::fluxion_key, fluxion_key_message(p.key), p.key_range);
                }
            {
                PointerScope count_at(ptr_, "count");
                built_count(v.count, v.count_range);
            }
            if (!v.with.empty()) {
                PointerScope with_at(ptr_, "with");
                fluxion_resources(v.with);
            }
        }
    }

private:
    void built_count(const Count& c, SourceRange range) {
        if (c.is_fixed()) {
            fits_fluxion(c.fixed(), fluxion_max_count, "a count", range);
        } else if (c.is_idset()) {
            report(Code::fluxion_count, fluxion_string_count_message(c.format()), range,
                   std::string(fluxion_string_count_help));
        } else {
            const CountRange& r = c.range();
            fits_fluxion(r.min, fluxion_max_count, "a minimum", range);
            if (r.max)
                fits_fluxion(*r.max, fluxion_max_count, "a maximum", range);
            if (r.max || r.explicit_step)
                fits_fluxion(r.operand, fluxion_max_operand, "an operand", range);
            if (!r.max && r.explicit_step)
                report(Code::fluxion_count, std::string(fluxion_partial_range_message), range,
                       std::string(fluxion_partial_range_help));
        }
    }

    /// Whether Fluxion's reader's rules apply (the dialect the jobspec records).
    bool fluxion() const { return out_.dialect == Dialect::fluxion; }

    Diagnostics& diags_;
    JsonPointer ptr_;
    Jobspec out_;
};

} // namespace

Jobspec lower_jobspec(const syntax::DocNode& root, Dialect dialect, Diagnostics& diagnostics) {
    return JobspecLowering(dialect, diagnostics).document(root);
}

void lower_attributes_member(const std::string& key, const syntax::DocNode& value,
                             Attributes& attributes, Dialect dialect, Diagnostics& diagnostics) {
    JobspecLowering lowering(dialect, diagnostics);
    lowering.out().attributes = std::move(attributes);
    PointerScope at(lowering.pointer(), "attributes");
    lowering.attributes_member(key, {}, value);
    attributes = std::move(lowering.out().attributes);
}

ResourceList lower_resources(const syntax::DocNode& n, Dialect dialect, Diagnostics& diagnostics) {
    JobspecLowering lowering(dialect, diagnostics);
    PointerScope at(lowering.pointer(), "resources");
    return lowering.resource_list(n);
}

void check_fluxion_resources(const ResourceList& resources, Diagnostics& diagnostics) {
    JobspecLowering lowering(Dialect::fluxion, diagnostics);
    PointerScope at(lowering.pointer(), "resources");
    lowering.fluxion_resources(resources);
}

} // namespace jobspec::lower
