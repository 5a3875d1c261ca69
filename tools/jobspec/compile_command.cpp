#include "compile_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include <jobspec/compile.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/text.hpp>

extern char** environ;

namespace jobspec::cli {

namespace {

struct CompileArgs {
    CommonOptions common;
    JobRequest request;
    std::string shape;
    std::string time;
    std::string cwd;
    std::vector<std::string> env;
    bool env_all = false;
    std::vector<std::string> setattr;
    std::vector<std::string> dependencies;
    std::string begin_time;
    std::string requires_query;
    bool allow_unknown_scheme = false;
    bool v1 = false;
    std::string format = "json";
    std::string counts = "dict";
};

/// A variable of the caller's environment as UTF-8: each byte that is not UTF-8 becomes
/// U+FFFD (JSON cannot carry it), with a jobspec.environment-encoding warning (raising
/// `status` when --strict makes it an error).
std::string copied_variable(std::string_view text, Reporter& out, int& status) {
    if (find_invalid_utf8(text) == std::string_view::npos)
        return std::string(text);
    const std::string_view name = text.substr(0, text.find('='));
    status = std::max(status, out.report(Code::jobspec_environment_encoding,
                                         "environment variable '" + std::string(name) +
                                             "' is not valid UTF-8; each byte that is not was "
                                             "replaced by U+FFFD",
                                         "set it to UTF-8 text before running jobspec"));
    return to_valid_utf8(text);
}

/// "NAME=VALUE", or "NAME" for the caller's value of NAME (skipped when unset; repaired
/// like --env-all's copy when it is not UTF-8).
void add_environment(std::vector<std::pair<std::string, std::string>>& out,
                     const std::string& spec, Reporter& reporter, int& status) {
    const auto eq = spec.find('=');
    if (eq != std::string::npos) {
        out.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
        return;
    }
    if (const char* value = std::getenv(spec.c_str())) {
        std::string copied = copied_variable(spec + "=" + value, reporter, status);
        out.emplace_back(spec, copied.substr(spec.size() + 1));
    }
}

int run_compile(CompileArgs& args, Reporter& out) {
    JobRequest& r = args.request;
    r.limits = args.common.limits;
    if (!args.shape.empty())
        r.shape = args.shape;
    if (!args.time.empty()) {
        const auto seconds = parse_duration(args.time);
        if (!seconds)
            return out.usage(Code::usage_option_value,
                             "-t: '" + args.time + "' is not a duration (e.g. 90, 30s, 5m, 1.5h, 2d)");
        r.duration = *seconds;
    }
    std::error_code ec;
    r.cwd = args.cwd.empty() ? std::filesystem::current_path(ec).string() : args.cwd;
    int env_status = exit_ok;
    if (args.env_all)
        for (char** e = environ; e != nullptr && *e != nullptr; ++e)
            add_environment(r.environment, copied_variable(*e, out, env_status), out,
                            env_status);
    for (const auto& spec : args.env)
        add_environment(r.environment, spec, out, env_status);
    if (env_status != exit_ok)
        return env_status;
    for (const auto& spec : args.setattr) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0)
            return out.usage(Code::usage_option_value,
                             "--setattr: '" + spec + "' is not KEY=VALUE");
        r.attributes.emplace_back(spec.substr(0, eq), attribute_value(spec.substr(eq + 1)));
    }
    DependencyOptions dependency_options;
    dependency_options.allow_unknown_scheme = args.allow_unknown_scheme;
    dependency_options.limits = r.limits;
    for (const auto& uri : args.dependencies) {
        auto d = parse_dependency(uri, dependency_options);
        if (const int status = out.report(d.diagnostics(), uri); status != exit_ok)
            return status;
        r.dependencies.push_back(std::move(d).value());
    }
    if (!args.begin_time.empty()) {
        r.begin_time = parse_begin_time(args.begin_time);
        if (!r.begin_time)
            return out.usage(Code::usage_option_value,
                             "--begin-time: '" + args.begin_time +
                                 "' is neither seconds since the epoch nor an ISO-8601 date "
                                 "(2026-11-22T10:00:00Z)");
    }
    if (!args.requires_query.empty()) {
        QueryOptions query;
        query.limits = r.limits;
        auto constraint = parse_constraint_query(args.requires_query, query);
        if (const int status = out.report(constraint.diagnostics(), args.requires_query);
            status != exit_ok)
            return status;
        r.constraints = std::move(constraint).value();
    }
    auto result = compile_jobspec(r, args.v1);
    bool misuse = false;
    for (const auto& d : result.diagnostics())
        misuse = misuse || d.code == Code::jobspec_request;
    const int status = out.report(result.diagnostics(), args.shape);
    if (status != exit_ok)
        return misuse ? exit_usage : status;
    const auto value = to_json_value(result.value(), args.counts == "string" ? CountStyle::string
                                                                             : CountStyle::dict);
    return write_output(
        args.format == "yaml" ? to_yaml_text(value) : to_json_text(value, args.common.pretty), out);
}

} // namespace

Command add_compile_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<CompileArgs>();
    JobRequest& r = args->request;
    CLI::App* app = parent.add_subcommand(
        "compile", "Build a jobspec from a shape or from srun-style options, and a command");
    app->add_option("--shape", args->shape, "Resources as an RFC 46 shape instead of -N/-c/-g/-x");
    app->add_option("-N,--nodes", r.nodes, "Nodes (alone: one task per node)")
        ->check(whole_number(1));
    app->add_option("-n,--ntasks", r.tasks, "Tasks")->check(whole_number(1));
    app->add_option("-c,--cores-per-task", r.cores_per_task, "Cores per task")
        ->check(whole_number(1))
        ->capture_default_str();
    app->add_option("-g,--gpus-per-task", r.gpus_per_task, "GPUs per task")
        ->check(whole_number(0))
        ->capture_default_str();
    app->add_flag("-x,--exclusive", r.exclusive, "Allocate whole nodes (needs -N)");
    app->add_option("-t,--time-limit", args->time,
                    "Duration: seconds, or a number with s, m, h or d (default: unlimited)");
    app->add_option("--cwd", args->cwd, "Working directory (default: the current one)");
    // Repeatable options take one value each, so '--' after them still starts the command.
    app->add_option("--env", args->env,
                    "Set NAME=VALUE, or NAME to copy the caller's value (repeatable)")
        ->allow_extra_args(false);
    app->add_flag("--env-all", args->env_all, "Copy the caller's whole environment");
    app->add_option("--setattr", args->setattr,
                    "Set KEY=VALUE under attributes: system.KEY, user.KEY, or KEY for "
                    "system.KEY; VALUE is JSON when it parses, else a string (repeatable)")
        ->allow_extra_args(false);
    app->add_option("--dependency", args->dependencies,
                    "An RFC 26 dependency URI, e.g. afterok:ƒ2oLkTLb (repeatable)")
        ->allow_extra_args(false);
    app->add_flag("--allow-unknown-scheme", args->allow_unknown_scheme,
                  "Accept dependency schemes jobspec does not know");
    app->add_option("--begin-time", args->begin_time,
                    "Start no earlier than TIME: seconds since the epoch or an ISO-8601 date "
                    "(local time unless it ends in Z or an offset)");
    app->add_option("--requires", args->requires_query,
                    "Constraints as an RFC 35 query, e.g. 'ssd and not host:foo[1-3]'");
    app->add_flag("--v1", args->v1, "Check the result against RFC 25 V1 (options always make V1)");
    app->add_option("--default-label", r.slot_label, "Label of the task slot")
        ->capture_default_str();
    app->add_option("--format", args->format, "Output format")
        ->check(CLI::IsMember({"json", "yaml"}))
        ->capture_default_str();
    app->add_option("--counts", args->counts, "Range and idset counts as dict or string")
        ->check(CLI::IsMember({"dict", "string"}))
        ->capture_default_str();
    app->add_option("COMMAND", r.command, "The program and its arguments, after --")->required();
    add_common_options(*app, args->common, reporter);
    app->footer(R"(How options become resources (RFC 25 use cases):
  -N4                 node=4/slot=1/core=1, one task per slot
  -n10 -c2 [-g1]      slot=10/[core=2;gpu=1], one task per slot
  -n16 -N4 -g1        node=4/slot=4/[core=1;gpu=1], one task per slot
  -n5 -N4             node=4/slot=1/core=1, total 5 tasks (-n not a multiple of -N)
The result always passes 'jobspec validate' (options always make a V1 jobspec).

Examples:
  jobspec compile -N4 -n16 -g1 -- myapp
  jobspec compile --shape 'slot=4/core=2' -t 1h -- myapp --input x

Exit status: 0 success, 1 invalid shape, 2 usage error (conflicting options).)");
    return Command{app, [args, &reporter] { return run_compile(*args, reporter); }};
}

} // namespace jobspec::cli
