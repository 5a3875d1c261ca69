// The C API's options: dialect flags and limits set by name, as on the command line.
#include <charconv>
#include <string>
#include <string_view>

#include "capi/handles.hpp"

namespace jobspec::capi {

const jobspec_options& options_or_default(const jobspec_options* options) {
    static const jobspec_options defaults;
    return options != nullptr ? *options : defaults;
}

namespace {

std::optional<bool> boolean(std::string_view v) {
    if (v == "true" || v == "1" || v == "yes")
        return true;
    if (v == "false" || v == "0" || v == "no")
        return false;
    return std::nullopt;
}

std::optional<std::size_t> positive(std::string_view v) {
    std::size_t n = 0;
    const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
    if (r.ec != std::errc() || r.ptr != v.data() + v.size() || n == 0)
        return std::nullopt;
    return n;
}

/// Applies one option; false when the value does not fit it, nothing for an unknown name.
std::optional<bool> apply(jobspec_options& o, std::string_view name, std::string_view value) {
    if (name == "default-label") {
        if (value.empty())
            return false;
        o.default_label = value;
        return true;
    }
    if (name == "counts") {
        if (value != "dict" && value != "string")
            return false;
        o.counts = value == "dict" ? CountStyle::dict : CountStyle::string;
        return true;
    }
    if (name == "format") {
        if (value == "auto")
            o.format = DocumentFormat::automatic;
        else if (value == "yaml")
            o.format = DocumentFormat::yaml;
        else if (value == "json")
            o.format = DocumentFormat::json;
        else
            return false;
        return true;
    }
    if (name == "dialect") {
        const auto d = dialect_named(value);
        if (d)
            o.dialect = *d;
        return d.has_value();
    }
    if (name == "config-json") {
        o.config_json = value;
        return true;
    }
    if (name == "config" || name == "queue") {
        (name == "config" ? o.config : o.queue) = value;
        return true;
    }
    if (name == "flux-instance") { // a boolean, or the instance's size
        const auto size = positive(value);
        const auto on = size ? std::optional<bool>(true) : boolean(value);
        if (on) {
            o.flux_instance = *on;
            o.flux_instance_size = size.value_or(0);
        }
        return on.has_value();
    }
    if (name == "max-match-steps") {
        const auto n = positive(value);
        if (n)
            o.max_match_steps = *n;
        return n.has_value();
    }
    if (name == "default-operator") {
        o.default_operator = value.empty() ? std::nullopt : std::optional<std::string>(value);
        return true;
    }
    for (auto [flag, field] :
         {std::pair{"v1", &jobspec_options::v1},
          std::pair{"allow-unknown-scheme", &jobspec_options::allow_unknown_scheme},
          std::pair{"strict", &jobspec_options::strict},
          std::pair{"pretty", &jobspec_options::pretty}}) {
        if (name == flag) {
            const auto b = boolean(value);
            if (b)
                o.*field = *b;
            return b.has_value();
        }
    }
    if (Limits probe; probe.set(name, 1)) { // the name of a limit
        const auto n = positive(value);
        return n && o.limits.set(name, *n);
    }
    return std::nullopt;
}

} // namespace

} // namespace jobspec::capi

extern "C" {

jobspec_options* jobspec_options_new(void) {
    return jobspec::capi::guarded<jobspec_options*>(nullptr, [] { return new jobspec_options; });
}

void jobspec_options_free(jobspec_options* options) {
    delete options;
}

bool jobspec_options_set(jobspec_options* options, const char* name, const char* value,
                         jobspec_error** error) {
    using namespace jobspec::capi;
    return guarded(error, false, [&] {
        if (!require(options, "options", error) || !require(name, "name", error) ||
            !require(value, "value", error))
            return false;
        const auto applied = apply(*options, name, value);
        if (applied.value_or(false))
            return true;
        set_error(error, jobspec::Code::api_invalid_argument,
                  applied ? std::string("option '") + name + "' does not take '" + value + "'"
                          : std::string("unknown option '") + name + "'");
        return false;
    });
}

} // extern "C"
