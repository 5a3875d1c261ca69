#include "validate_command.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>

namespace jobspec::cli {

namespace {

struct ValidateArgs {
    CommonOptions common;
    std::vector<std::string> files;
    std::string format = "auto";
    std::string emit;
    bool v1 = false;
    bool flux_instance = false;
    std::uint64_t flux_instance_size = 0;
    Dialect dialect = Dialect::rfc;
};

int run_validate(const ValidateArgs& args, Reporter& out) {
    ReadOptions options;
    options.v1 = args.v1;
    options.dialect = args.dialect;
    options.flux_instance = args.flux_instance;
    options.flux_instance_size = args.flux_instance_size;
    options.limits = args.common.limits;
    options.format = args.format == "json"   ? DocumentFormat::json
                     : args.format == "yaml" ? DocumentFormat::yaml
                                             : DocumentFormat::automatic;
    int status = exit_ok;
    for (const auto& file : args.files) {
        const auto text = out.read(file, args.common.limits, status);
        if (!text)
            continue;
        auto result = read_jobspec(*text, options);
        const int s = out.report(result.diagnostics(), *text, file);
        status = std::max(status, s);
        if (s != exit_ok)
            continue;
        if (args.emit.empty())
            continue;
        const auto value = to_json_value(result.value());
        const int w = write_output(args.emit == "yaml" ? to_yaml_text(value)
                                                       : to_json_text(value, args.common.pretty),
                                   out);
        if (w != exit_ok)
            return w;
    }
    return status;
}

} // namespace

Command add_validate_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<ValidateArgs>();
    CLI::App* app = parent.add_subcommand(
        "validate", "Check jobspec documents against RFC 14 (canonical) or RFC 25 (--v1)");
    app->add_option("FILE", args->files, "Jobspec files (YAML or JSON); - reads standard input")
        ->required();
    app->add_flag("--v1", args->v1,
                  "Also check the RFC 25 V1 rules (one node or slot, the four V1 graphs, "
                  "one task, a duration)");
    add_dialect_option(*app, args->dialect);
    app->add_option_function<std::string>(
           "--flux-instance",
           [args](const std::string& size) {
               args->flux_instance = true;
               args->flux_instance_size = size.empty() ? 0 : std::stoull(size);
           },
           "Also refuse what a Flux instance of SIZE ranks (or any size) cannot hold, as "
           "jobspec's Flux plugins do: attributes: null, constraints and counts its scheduler "
           "cannot read or stalls on, ranks it does not have (flux.* errors), nesting past "
           "512 levels")
        ->expected(0, 1)
        ->type_name("[SIZE]")
        ->check(whole_number(1));
    app->add_option("--format", args->format,
                    "Input format; auto takes JSON when the text starts with '{' or '['")
        ->check(CLI::IsMember({"auto", "json", "yaml"}))
        ->capture_default_str();
    app->add_option("--emit", args->emit,
                    "Print each valid document in canonical form, as json or yaml")
        ->check(CLI::IsMember({"json", "yaml"}));
    add_common_options(*app, args->common, reporter);
    add_vertex_limit_option(*app, args->common.limits);
    add_constraint_limit_option(*app, args->common.limits);
    app->footer(
        R"(Prints nothing for valid documents unless --emit is given (warnings may be printed); each problem is
reported with its JSON pointer and, for YAML and for JSON keys, strings and numbers,
the line and column with a caret.

Examples:
  jobspec validate job.yaml
  jobspec validate --v1 --diagnostics json job.json
  jobspec validate --dialect fluxion flexible.yaml
  jobspec validate --flux-instance=16 job.json

Exit status: 0 all valid, 1 a document is invalid, 2 usage error or unreadable file.)");
    return Command{app, [args, &reporter] { return run_validate(*args, reporter); }};
}

} // namespace jobspec::cli
