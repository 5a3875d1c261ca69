// The RFC 26 scheme rules, for URIs and for dependencies in jobspec documents.
#include <jobspec/dependency_rules.hpp>

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include <jobspec/fluid.hpp>

#include "model/decoders.hpp"
#include "support/json_pointer.hpp"
#include "support/json_text.hpp"
#include "support/numbers.hpp"
#include "support/fix_its.hpp"
#include <jobspec/suggest.hpp>

namespace jobspec {

namespace {

enum class ValueRule : std::uint8_t { fluid, timestamp, name, none };

struct Scheme {
    std::string_view name;
    ValueRule value;
    /// string and fluid: type and scope are required.
    bool openmp;
};

constexpr std::array<Scheme, 10> schemes = {{
    {"after", ValueRule::fluid, false},
    {"afterstart", ValueRule::fluid, false},
    {"afterany", ValueRule::fluid, false},
    {"afterok", ValueRule::fluid, false},
    {"afternotok", ValueRule::fluid, false},
    {"afterexcept", ValueRule::fluid, false},
    {"begin-time", ValueRule::timestamp, false},
    {"string", ValueRule::name, true},
    {"fluid", ValueRule::fluid, true},
    {"singleton", ValueRule::none, false},
}};

class RuleChecker {
public:
    RuleChecker(const Dependency& d, DependencyContext context, std::string_view pointer,
                Diagnostics& diagnostics)
        : d_(d), context_(context), pointer_(pointer), diags_(diagnostics) {}

    void report(Code code, std::string message, SourceRange range, std::string help = {},
                std::string_view key = {}, bool lenient = false, std::vector<FixIt> fixes = {}) {
        support::JsonPointer p(pointer_);
        if (!key.empty())
            p.push(key);
        const Severity severity = lenient && context_ == DependencyContext::document
                                      ? Severity::warning
                                      : default_severity(code);
        diags_.add(Diagnostic{code, severity, std::move(message), Location{range, p.str()},
                              std::move(help), std::move(fixes)});
    }

    void check(bool allow_unknown) {
        const auto scheme = std::find_if(schemes.begin(), schemes.end(),
                                         [&](const Scheme& s) { return s.name == d_.scheme; });
        if (scheme == schemes.end()) {
            if (allow_unknown)
                return;
            std::string help = "known schemes: after, afterstart, afterany, afterok, afternotok, "
                               "afterexcept, begin-time, string, fluid, singleton";
            std::vector<FixIt> fixes;
            if (auto near = closest(d_.scheme, known_schemes())) {
                help = fmt::format("did you mean '{}'?", *near);
                fixes = support::replace_word(d_.scheme_range, d_.scheme, *near);
            }
            report(Code::dependency_unknown_scheme, fmt::format("unknown scheme '{}'", d_.scheme),
                   d_.scheme_range, std::move(help), "scheme", true, std::move(fixes));
            return;
        }
        if (scheme->name == "after")
            report(Code::dependency_deprecated_scheme, "'after' is deprecated", d_.scheme_range,
                   "use 'afterstart', which means the same", "scheme");
        value(*scheme);
        options(*scheme);
    }

private:
    void value(const Scheme& s) {
        if (s.value == ValueRule::none) {
            if (!d_.value.empty())
                report(Code::dependency_unexpected_value,
                       fmt::format("'{}' takes no value", s.name), d_.value_range,
                       fmt::format("write just '{}'", s.name), "value");
            return;
        }
        if (d_.value.empty()) {
            report(Code::dependency_missing_value,
                   fmt::format("'{}' needs a value: {}", s.name,
                               s.value == ValueRule::fluid       ? "a job id"
                               : s.value == ValueRule::timestamp ? "a time in seconds"
                                                                 : "a name"),
                   d_.value_range, fmt::format("write {}:VALUE", s.name), "value");
            return;
        }
        if (s.value == ValueRule::fluid) {
            auto decoded = model::decode_fluid(d_.value);
            if (!decoded) {
                const auto& e = decoded.error();
                SourceRange at = d_.value_range;
                if (at.known() && at.size() == d_.value.size())
                    at = SourceRange{at.begin + static_cast<std::uint32_t>(e.offset),
                                     at.begin + static_cast<std::uint32_t>(e.offset + e.length)};
                report(Code::dependency_bad_fluid,
                       fmt::format("'{}' needs a job id: {}", s.name, e.message), at,
                       "a job id is a FLUID in any RFC 19 encoding, e.g. ƒ2oLkTLb or 1234", "value",
                       true);
            }
        } else if (s.value == ValueRule::timestamp && !support::parse_non_negative(d_.value)) {
            report(Code::dependency_begin_time,
                   fmt::format("'{}' is not a time in seconds since the epoch", d_.value),
                   d_.value_range, "jobspec compile --begin-time also takes an ISO-8601 date",
                   "value");
        }
    }

    void options(const Scheme& s) {
        for (std::size_t i = 0; i < d_.options.size(); ++i) {
            const auto& o = d_.options[i];
            for (std::size_t j = 0; j < i; ++j)
                if (d_.options[j].key == o.key)
                    report(Code::dependency_option,
                           fmt::format("option '{}' is given twice", o.key), o.key_range, {},
                           o.key);
            if (o.key == "scheme" || o.key == "value") {
                report(Code::dependency_option,
                       fmt::format("'{}' is not an option; it comes from the URI itself", o.key),
                       o.key_range, {}, o.key);
            } else if (!s.openmp || (o.key != "type" && o.key != "scope")) {
                report(
                    Code::dependency_unknown_option,
                    fmt::format("'{}' does not define option '{}'; it is passed on", s.name, o.key),
                    o.key_range, {}, o.key);
            }
        }
        if (!s.openmp)
            return;
        choice("type", {"in", "out", "inout"}, Code::dependency_type, s.name);
        choice("scope", {"user", "global"}, Code::dependency_scope, s.name);
    }

    void choice(std::string_view key, std::initializer_list<std::string_view> allowed, Code code,
                std::string_view scheme) {
        std::string list;
        for (const auto a : allowed)
            list += (list.empty() ? "" : "|") + std::string(a);
        const DependencyOption* o = d_.option(key);
        if (o == nullptr) {
            report(code, fmt::format("'{}' needs {}={}", scheme, key, list), d_.scheme_range,
                   fmt::format("add ?{}=...", key));
            return;
        }
        if (std::find(allowed.begin(), allowed.end(), o->text()) == allowed.end() ||
            !o->value.is_string())
            report(code,
                   fmt::format("{} '{}' is not one of {}", key,
                               o->value.is_string() ? std::string(o->text())
                                                    : support::json_text(o->value),
                               list),
                   o->value_range, {}, key);
    }

    const Dependency& d_;
    DependencyContext context_;
    std::string_view pointer_;
    Diagnostics& diags_;
};

} // namespace

const std::vector<std::string_view>& known_schemes() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const auto& s : schemes)
            out.push_back(s.name);
        return out;
    }();
    return names;
}

void check_dependency(const Dependency& dependency, DependencyContext context,
                      bool allow_unknown_scheme, std::string_view pointer,
                      Diagnostics& diagnostics) {
    RuleChecker(dependency, context, pointer, diagnostics).check(allow_unknown_scheme);
}

} // namespace jobspec
