#include "lower/submission_settings.hpp"

#include <algorithm>
#include <initializer_list>
#include <variant>

#include <fmt/format.h>

#include "lower/attribute_lowering.hpp"
#include "lower/jobspec_lowering.hpp"
#include "lower/submission_values.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::lower {

namespace {

using syntax::DocNode;

/// -S KEY[=VAL]: the attribute path flux sets.
std::string attribute_path(const std::string& key) {
    if (!key.empty() && key[0] == '.')
        return "attributes" + key;
    if (key.rfind("attributes.", 0) == 0)
        return key;
    if (key.rfind("user.", 0) == 0 || key.rfind("system.", 0) == 0)
        return "attributes." + key;
    return "attributes.system." + key;
}

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

std::string joined(std::vector<std::string>::const_iterator from,
                   std::vector<std::string>::const_iterator to) {
    std::string out;
    for (auto it = from; it != to; ++it)
        out += (it == from ? "" : ".") + *it;
    return out;
}

/// `value` under the keys from..to, outermost first: what flux's dotted set makes.
DocNode nested(std::vector<std::string>::const_iterator from,
               std::vector<std::string>::const_iterator to, DocNode value) {
    for (auto it = to; it != from; --it) {
        DocNode object = DocNode::make(DocNode::Kind::mapping);
        object.members().push_back({*(it - 1), {}, std::move(value)});
        value = std::move(object);
    }
    return value;
}

/// Moves every range of `n` right by `offset` bytes.
void shift_ranges(DocNode& n, std::size_t offset) {
    n.range = n.range.shifted(offset);
    if (n.is_mapping())
        for (auto& m : n.members()) {
            m.key_range = m.key_range.shifted(offset);
            shift_ranges(m.value, offset);
        }
    else if (n.is_sequence())
        for (auto& e : n.elements())
            shift_ranges(e, offset);
}

/// How deep a value nests (a scalar is 0), counted no further than `most` + 1.
std::size_t depth_of(const DocNode& n, std::size_t most) {
    if (most == 0 || (!n.is_mapping() && !n.is_sequence()))
        return n.is_mapping() || n.is_sequence() ? 1 : 0;
    std::size_t deepest = 0;
    if (n.is_mapping())
        for (const auto& m : n.members())
            deepest = std::max(deepest, depth_of(m.value, most - 1));
    else
        for (const auto& e : n.elements())
            deepest = std::max(deepest, depth_of(e, most - 1));
    return deepest + 1;
}

/// The JSON pointer of these keys.
std::string pointer_of(std::initializer_list<std::string_view> keys) {
    support::JsonPointer p;
    for (const auto key : keys)
        p.push(key);
    return p.str();
}

/// flux's dotted set of attributes.PATH, on the model.
class AttributeSetter {
public:
    AttributeSetter(Jobspec& jobspec, SubmissionSources& sources, Diagnostics& diagnostics)
        : js_(jobspec), sources_(sources), d_(diagnostics) {}

    /// flux's dotted set of attributes.PATH, on the model: a typed system attribute is
    /// lowered by its type, a dictionary (job, shell, files, user) set inside, an
    /// environment variable set in its place.
    bool set(const std::vector<std::string>& parts, Setting s) {
        Jobspec& js = js_;
        const std::string& scope = parts[1];
        if (parts.size() == 2 || (scope != "system" && scope != "user")) {
            const std::size_t errors = d_.error_count();
            lower_attributes_member(scope,
                                    nested(parts.begin() + 2, parts.end(), std::move(s.value)),
                                    js.attributes, js.dialect, d_);
            sources_.set(pointer_of({"attributes", scope}), s.source);
            return d_.error_count() == errors;
        }
        const std::string path = joined(parts.begin(), parts.end());
        if (scope == "user") {
            if (!js.attributes.user)
                js.attributes.user.emplace();
            return set_dotted(*js.attributes.user, joined(parts.begin() + 2, parts.end()),
                              s.value.to_json(), d_, "attributes.user.");
        }
        const std::string& key = parts[2];
        const auto rest = parts.begin() + 3;
        const std::string pointer = pointer_of({"attributes", "system", key});
        auto& entries = js_.attributes.system_list().entries;
        auto existing = std::find_if(entries.begin(), entries.end(),
                                     [&](const Attribute& a) { return a.key == key; });
        if (rest == parts.end() || existing == entries.end()) {
            sources_.set(pointer, s.source);
            const SourceRange key_range = rest == parts.end() ? s.key_range : SourceRange{};
            return set_lowered(key, nested(rest, parts.end(), std::move(s.value)), pointer,
                               key_range);
        }
        if (auto* json = std::get_if<boost::json::value>(&existing->value)) {
            if (!json->is_object()) {
                not_an_object(path, s.value.to_json(), key, d_);
                return false;
            }
            // Only the part set is new: check it as that attribute's part.
            if (!check_part(key, nested(rest, parts.end(), s.value), pointer))
                return false;
            return set_dotted(json->get_object(), joined(rest, parts.end()), s.value.to_json(), d_,
                              fmt::format("attributes.system.{}.", key));
        }
        if (std::holds_alternative<Environment>(existing->value))
            return variable(*rest, nested(rest + 1, parts.end(), std::move(s.value)), s.source);
        if (auto* c = std::get_if<Constraint>(&existing->value)) {
            // flux sets a key of the constraint's dictionary: {} holds none.
            const bool empty = c->op() == ConstraintOperator::Kind::and_of && c->children().empty();
            if (empty || (c->op() == *rest && rest + 1 == parts.end())) {
                sources_.set(pointer, s.source);
                return set_lowered(key, nested(rest, parts.end(), std::move(s.value)), pointer);
            }
            if (c->op() != *rest) {
                // A second operator beside the one there: lowered as the dictionary made.
                DocNode both = DocNode::make(DocNode::Kind::mapping);
                both.members().push_back(
                    {std::string(c->op().name()), {}, DocNode::make(DocNode::Kind::sequence)});
                both.members().push_back(
                    {*rest, {}, nested(rest + 1, parts.end(), std::move(s.value))});
                return set_lowered(key, both, pointer);
            }
            not_an_object(path, s.value.to_json(), *rest, d_);
            return false;
        }
        not_an_object(path, s.value.to_json(), key, d_);
        return false;
    }

    /// System attribute `key` set to `value`, lowered by its type.
    bool set_lowered(const std::string& key, const DocNode& value, const std::string& pointer,
                     SourceRange key_range = {}) {
        support::JsonPointer at(pointer);
        auto lowered = lower_attribute(key, value, AttributeScope::system, at, d_, js_.dialect);
        if (!lowered)
            return false;
        js_.attributes.system_list().set(key, std::move(*lowered));
        for (auto& a : js_.attributes.system_list().entries)
            if (a.key == key) {
                a.value_range = value.range;
                a.key_range = key_range;
            }
        return true;
    }

    bool check_part(const std::string& key, const DocNode& part, const std::string& pointer) {
        if (key != "job" && key != "shell" && key != "files")
            return true;
        support::JsonPointer at(pointer);
        return lower_attribute(key, part, AttributeScope::system, at, d_).has_value();
    }

    /// environment.NAME, in its place (or at the end).
    bool variable(const std::string& name, DocNode value,
                  const std::shared_ptr<const SourceText>& source) {
        sources_.set(pointer_of({"attributes", "system", "environment", name}), source);
        DocNode one = DocNode::make(DocNode::Kind::mapping);
        one.members().push_back({name, {}, std::move(value)});
        support::JsonPointer at(pointer_of({"attributes", "system", "environment"}));
        auto lowered = lower_attribute("environment", one, AttributeScope::system, at, d_);
        if (!lowered)
            return false;
        for (auto& a : js_.attributes.system_list().entries) {
            auto* e = std::get_if<Environment>(&a.value);
            if (a.key != "environment" || e == nullptr)
                continue;
            auto variable = std::move(std::get<Environment>(*lowered).front());
            auto same = std::find_if(e->begin(), e->end(),
                                     [&](const EnvironmentVariable& v) { return v.name == name; });
            if (same != e->end())
                *same = std::move(variable);
            else
                e->push_back(std::move(variable));
            return true;
        }
        not_an_object("attributes.system.environment." + name, one.to_json(), "environment", d_);
        return false;
    }

private:
    Jobspec& js_;
    SubmissionSources& sources_;
    Diagnostics& d_;
};

} // namespace

bool within_depth(const Setting& setting, std::string_view option, const Limits& limits,
                  Diagnostics& diagnostics) {
    const std::size_t most = limits.effective_depth();
    const std::size_t parts =
        static_cast<std::size_t>(std::count(setting.key.begin(), setting.key.end(), '.')) + 3;
    if (parts <= most && parts + depth_of(setting.value, most - parts) <= most)
        return true;
    diagnostics.add(
        Code::limit_depth,
        fmt::format("--{}: the key and its value nest deeper than the limit of {}", option, most),
        {}, "use fewer parts in the key, or raise --max-depth");
    return false;
}

std::optional<Setting> read_setting(const std::string& text, std::string_view option,
                                    const SubmitContext& ctx, Diagnostics& d) {
    const auto eq = text.find('=');
    Setting s{text.substr(0, eq), DocNode::of(std::int64_t{1}), nullptr};
    if (eq == std::string::npos)
        return within_depth(s, option, ctx.limits, d) ? std::optional(std::move(s)) : std::nullopt;
    const std::string value = text.substr(eq + 1);
    if (s.key.empty() || s.key[0] != '^') {
        // Ranges into KEY=VALUE, so that a problem with the key can point at it.
        s.value = setting_value(value, ctx.limits);
        shift_ranges(s.value, eq + 1);
        s.source = option_text(fmt::format("--{}", option), text);
        const std::size_t part = s.key.rfind('.') == std::string::npos ? 0 : s.key.rfind('.') + 1;
        s.key_range = {static_cast<std::uint32_t>(part), static_cast<std::uint32_t>(eq)};
        return within_depth(s, option, ctx.limits, d) ? std::optional(std::move(s)) : std::nullopt;
    }
    s.key.erase(0, s.key.find_first_not_of('^'));
    const auto file = read_submission_file(ctx, value, "", FileError::path, d);
    if (!file)
        return std::nullopt;
    Diagnostics problems;
    auto parsed = json_tree(file->content, ctx.limits, problems);
    if (!parsed) {
        d.add(Code::submit_value,
              fmt::format("--{}: {}: {}", option, value, problems.begin()->message));
        return std::nullopt;
    }
    s.value = std::move(*parsed);
    s.source = std::make_shared<const SourceText>(SourceText{value, file->content, true});
    return within_depth(s, option, ctx.limits, d) ? std::optional(std::move(s)) : std::nullopt;
}

bool set_attribute(Jobspec& jobspec, SubmissionSources& sources, Setting setting,
                   Diagnostics& diagnostics) {
    const auto parts = split_path(attribute_path(setting.key));
    return AttributeSetter(jobspec, sources, diagnostics).set(parts, std::move(setting));
}

bool set_environment_variable(Jobspec& jobspec, SubmissionSources& sources, const std::string& name,
                              syntax::DocNode value,
                              const std::shared_ptr<const SourceText>& source,
                              Diagnostics& diagnostics) {
    return AttributeSetter(jobspec, sources, diagnostics).variable(name, std::move(value), source);
}

} // namespace jobspec::lower
