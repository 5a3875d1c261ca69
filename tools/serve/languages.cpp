#include "languages.hpp"

#include <memory>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/document.hpp>
#include <jobspec/document_check.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/forecast.hpp>
#include <jobspec/forecast_text.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::serve {

namespace {

const OptionSpec format_option{
    "format", "--format", "Output format", OptionKind::choice, {"json", "yaml"}};
const OptionSpec counts_option{
    "counts", "--counts", "Range and idset counts", OptionKind::choice, {"dict", "string"}};

/// Diagnostics and output as the CLI settles them: --strict first, then nothing printed
/// unless the status is 0.
template <typename T, typename Print>
Outcome settle(Result<T>& result, const Settings& settings, Print print) {
    Outcome out;
    out.diagnostics = result.diagnostics();
    if (settings.flag("strict"))
        out.diagnostics.promote_warnings();
    out.status = exit_status(out.diagnostics);
    if (out.status == 0)
        out.output = print(result.value());
    return out;
}

/// A document read from standard input that holds only blanks: the CLI's io.empty.
std::optional<Outcome> empty_document(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") != std::string_view::npos)
        return std::nullopt;
    Outcome out;
    out.diagnostics.add(Code::io_empty, "<stdin> is empty");
    out.status = exit_status(out.diagnostics);
    return out;
}

std::string json_or_yaml(const boost::json::value& value, const Settings& settings) {
    return settings.value(format_option) == "yaml" ? to_yaml_text(value)
                                                   : to_json_text(value, settings.flag("pretty"));
}

Result<ResourceList> read_shape(std::string_view text, const Limits& limits) {
    ShapeOptions options;
    options.limits = limits;
    return compile_shape(text, options);
}

Outcome compile_shape_text(std::string_view text, const Settings& settings, const Limits& limits) {
    auto result = read_shape(text, limits);
    const CountStyle counts =
        settings.value(counts_option) == "string" ? CountStyle::string : CountStyle::dict;
    return settle(result, settings, [&](const ResourceList& resources) {
        return settings.value(format_option) == "yaml"
                   ? to_yaml_text(to_json_value(resources, counts))
                   : to_json_text(resources, counts, settings.flag("pretty"));
    });
}

Outcome graph_shape_text(std::string_view text, const Settings& settings, const Limits& limits) {
    auto result = read_shape(text, limits);
    return settle(result, settings, [](const ResourceList& r) { return to_dot(r); });
}

Result<Jobspec> read_document(std::string_view text, const Settings& settings,
                              const Limits& limits) {
    ReadOptions options;
    options.v1 = settings.flag("v1");
    options.dialect = dialect_of(settings);
    options.limits = limits;
    return read_jobspec(text, options);
}

Outcome compile_jobspec_text(std::string_view text, const Settings& settings,
                             const Limits& limits) {
    if (auto empty = empty_document(text))
        return std::move(*empty);
    auto result = read_document(text, settings, limits);
    return settle(result, settings,
                  [&](const Jobspec& j) { return json_or_yaml(to_json_value(j), settings); });
}

Outcome graph_jobspec_text(std::string_view text, const Settings& settings, const Limits& limits) {
    if (auto empty = empty_document(text))
        return std::move(*empty);
    auto result = read_document(text, settings, limits);
    return settle(result, settings, [](const Jobspec& j) { return to_dot(j); });
}

Outcome compile_batch_text(std::string_view text, const Settings& settings, const Limits& limits) {
    // Another person's script: it reads none of the server's files (each is missing).
    SubmitContext context = current_submit_context();
    context.read_file = nullptr;
    auto result =
        check_document(DocumentKind::batch_script, text, {limits, dialect_of(settings), &context});
    return settle(result, settings, [&](const boost::json::value& v) {
        if (settings.value(format_option) == "yaml")
            return to_yaml_text(v);
        return settings.flag("pretty") ? to_json_text(v, true) : to_flux_json_text(v) + "\n";
    });
}

Outcome compile_constraint_text(std::string_view text, const Settings& settings,
                                const Limits& limits) {
    QueryOptions options;
    if (const auto op = settings.values.find("default_operator");
        op != settings.values.end() && !op->second.empty())
        options.default_operator = op->second;
    options.limits = limits;
    auto result = parse_constraint_query(text, options);
    return settle(result, settings, [&](const Constraint& c) {
        return to_json_text(to_json_value(c), settings.flag("pretty"));
    });
}

Outcome compile_dependency_text(std::string_view text, const Settings& settings,
                                const Limits& limits) {
    DependencyOptions options;
    options.allow_unknown_scheme = settings.flag("allow_unknown_scheme");
    options.limits = limits;
    auto result = parse_dependency(text, options);
    return settle(result, settings, [&](const Dependency& d) {
        return to_json_text(boost::json::array{to_json_value(d)}, settings.flag("pretty"));
    });
}

Outcome compile_r_text(std::string_view text, const Settings& settings, const Limits& limits) {
    if (auto empty = empty_document(text))
        return std::move(*empty);
    auto result = read_resource_set(text, limits);
    return settle(result, settings, [&](const ResourceSet& r) {
        return to_json_text(to_json_value(r), settings.flag("pretty"));
    });
}

/// The most work one forecast does here, in the forecast's steps (a rank looked at, about
/// 10 ns): a few seconds, where the CLI has no bound.
constexpr std::uint64_t forecast_steps = std::uint64_t{1} << 28;

const OptionSpec utc_option{"utc", "--utc", "Times in UTC rather than the server's time zone"};

/// The state read and its forecast made, or why not; `draw` writes what is printed.
template <typename Draw>
Outcome forecast_of(std::string_view text, const Settings& settings, const Limits& limits,
                    Draw draw) {
    if (auto empty = empty_document(text))
        return std::move(*empty);
    ReadOptions read;
    read.dialect = dialect_of(settings);
    read.limits = limits;
    auto state = read_instance_state(text, read, nullptr);
    Outcome out = settle(state, settings, [](const InstanceState&) { return std::string(); });
    if (out.status != 0)
        return out;
    ForecastRun run(std::make_shared<const InstanceState>(std::move(state).value()));
    constexpr std::uint64_t chunk = std::uint64_t{1} << 20;
    for (std::uint64_t spent = 0; !run.done() && spent < forecast_steps; spent += chunk)
        run.advance(chunk);
    if (!run.done()) {
        out.diagnostics.add(Code::match_budget,
                            fmt::format("the forecast takes more than {} steps here: the "
                                        "command line (jobspec forecast) has no such bound",
                                        forecast_steps));
        out.status = exit_status(out.diagnostics);
        return out;
    }
    ForecastTextOptions options;
    options.utc = settings.flag("utc");
    out.output = draw(run.result(), run.state(), options);
    return out;
}

Outcome compile_forecast_text(std::string_view text, const Settings& settings,
                              const Limits& limits) {
    return forecast_of(
        text, settings, limits,
        [&](const Forecast& f, const InstanceState& s, const ForecastTextOptions& o) {
            return settings.flag("json")
                       ? to_json_text(forecast_to_json(f, s, o), settings.flag("pretty"))
                       : forecast_lines(f, s, o);
        });
}

Outcome picture_forecast_text(std::string_view text, const Settings& settings,
                              const Limits& limits) {
    return forecast_of(text, settings, limits,
                       [](const Forecast& f, const InstanceState& s, const ForecastTextOptions& o) {
                           return forecast_svg(f, s, o);
                       });
}

/// Four nodes under sched-simple: node3 drained, node2 running a job for ten minutes more;
/// one job next, one waiting for node2, one that can never run here.
constexpr std::string_view forecast_example = R"({
  "now": 1800000000,
  "R": {"version": 1, "execution": {"R_lite": [{"rank": "0-3", "children": {"core": "0-7"}}],
        "nodelist": ["node[0-3]"], "properties": {"ssd": "2-3"}, "starttime": 0, "expiration": 0}},
  "down": "3",
  "drained": {"3": {"timestamp": 1799990000, "reason": "bad fan"}},
  "scheduler": {"name": "sched-simple"},
  "running": [{"id": 1001, "expiration": 1800000600,
               "R": {"version": 1, "execution": {"R_lite": [{"rank": "2", "children": {"core": "0-7"}}],
                     "nodelist": ["node2"], "starttime": 1799999000, "expiration": 1800000600}}}],
  "pending": [
    {"id": 2001, "state": "sched", "priority": 16, "t_submit": 1799999900,
     "jobspec": {"version": 1, "resources": [{"type": "node", "count": 2, "with": [{"type": "slot",
       "count": 1, "label": "task", "with": [{"type": "core", "count": 8}]}]}],
       "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
       "attributes": {"system": {"duration": 3600}}}},
    {"id": 2002, "state": "sched", "priority": 16, "t_submit": 1799999950,
     "jobspec": {"version": 1, "resources": [{"type": "slot", "count": 1, "label": "task",
       "with": [{"type": "core", "count": 4}]}],
       "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
       "attributes": {"system": {"duration": 600, "constraints": {"properties": ["ssd"]}}}}},
    {"id": 2003, "state": "sched", "priority": 16, "t_submit": 1799999990,
     "jobspec": {"version": 1, "resources": [{"type": "node", "count": 5, "with": [{"type": "slot",
       "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}],
       "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
       "attributes": {"system": {"duration": 60}}}}
  ]
}
)";

constexpr std::string_view jobspec_example = R"(version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 4
          - type: gpu
            count: 1
tasks:
  - command: [app, --input, data.h5]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
)";

constexpr std::string_view batch_example = R"(#!/bin/sh
#flux: -N 2 --exclusive
#flux: -t 30m --job-name=analysis
#flux: --requires="ssd and not host:node[1-3]"
flux run -N2 app --input data.h5
)";

constexpr std::string_view r_example =
    R"({"version":1,"execution":{"R_lite":[{"rank":"0-3","children":{"core":"0-7","gpu":"0-1"}}],"nodelist":["node[0-3]"],"properties":{"ssd":"0-1"},"starttime":0,"expiration":0}}
)";

} // namespace

std::string_view Settings::value(const OptionSpec& spec) const {
    if (const auto it = values.find(spec.name); it != values.end())
        return it->second;
    return spec.kind == OptionKind::choice && !spec.choices.empty() ? spec.choices.front()
                                                                    : std::string_view();
}

const OptionSpec& dialect_option() {
    static const OptionSpec option{"dialect",
                                   "--dialect",
                                   "Whose rules: RFC 14, or Fluxion's (sibling slots, xor_slot, "
                                   "versions to 9999)",
                                   OptionKind::choice,
                                   {"rfc", "fluxion"}};
    return option;
}

Dialect dialect_of(const Settings& settings) {
    return dialect_named(settings.value(dialect_option())).value_or(Dialect::rfc);
}

const std::vector<OptionSpec>& common_options() {
    static const std::vector<OptionSpec> options = {
        {"pretty", "--pretty", "Indented JSON"},
        {"strict", "--strict", "Warnings are errors"},
    };
    return options;
}

const std::vector<Language>& languages() {
    static const std::vector<Language> table = {
        {"shape",
         "Shape (RFC 46)",
         "jobspec shape TEXT",
         "slot=4{nodelevel}/node{-x}/socket=2+/core=4+",
         {format_option, counts_option},
         Grammar::shape,
         compile_shape_text,
         graph_shape_text,
         {}},
        {"jobspec",
         "Jobspec YAML or JSON (RFC 14, RFC 25)",
         "jobspec validate --emit FORMAT -",
         jobspec_example,
         {{"v1", "--v1", "Check the RFC 25 V1 rules"}, format_option, dialect_option()},
         std::nullopt,
         compile_jobspec_text,
         graph_jobspec_text,
         r_example},
        {"batch",
         "Batch script: #flux: directives (RFC 36)",
         "jobspec compile --batch --env-none script",
         batch_example,
         {format_option, dialect_option()},
         std::nullopt,
         compile_batch_text,
         nullptr,
         {}},
        {"constraint",
         "Constraint query (RFC 35)",
         "jobspec constraint TEXT",
         "ssd and not host:foo[1-3]",
         {{"default_operator", "--default-operator",
           "Default operator: empty for the --requires dialect, a name (e.g. name) for "
           "RFC 35's plain language",
           OptionKind::text}},
         Grammar::constraint,
         compile_constraint_text,
         nullptr,
         {}},
        {"dependency",
         "Dependency URI (RFC 26)",
         "jobspec dependency TEXT",
         "string:foo?type=out;scope=user",
         {{"allow_unknown_scheme", "--allow-unknown-scheme", "Accept unknown schemes"}},
         Grammar::dependency,
         compile_dependency_text,
         nullptr,
         {}},
        {"R",
         "Resource set R (RFC 20)",
         "jobspec R decode -",
         r_example,
         {},
         std::nullopt,
         compile_r_text,
         nullptr,
         {}},
        {"forecast",
         "An instance's state: when each pending job starts (docs/SCHEDULERS.md)",
         "jobspec forecast -",
         forecast_example,
         {{"json", "--json", "The forecast as JSON"}, utc_option, dialect_option()},
         std::nullopt,
         compile_forecast_text,
         nullptr,
         {},
         picture_forecast_text},
    };
    return table;
}

const Language* find_language(std::string_view name) {
    for (const auto& language : languages())
        if (language.name == name)
            return &language;
    return nullptr;
}

int exit_status(const Diagnostics& diagnostics) {
    int status = 0;
    for (const auto& d : diagnostics) {
        if (d.severity != Severity::error)
            continue;
        const std::string_view code = d.code_name();
        // A directive's option that flux rejects is misuse, as on the command line.
        if (code.starts_with("usage.") || d.code == Code::directive_option ||
            d.code == Code::io_unreadable || d.code == Code::io_unwritable)
            return 2;
        status = 1;
    }
    return status;
}

} // namespace jobspec::serve
