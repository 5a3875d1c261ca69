// jobspec: the command-line driver for the jobspec front end.
#include <algorithm>
#include <iterator>
#include <new>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "compile_command.hpp"
#include "constraint_command.hpp"
#include "match_command.hpp"
#include "dependency_command.hpp"
#include "directives_command.hpp"
#include "explain_command.hpp"
#include "fix_command.hpp"
#include "forecast_command.hpp"
#include "graph_command.hpp"
#include "hostlist_command.hpp"
#include "id_command.hpp"
#include "lsp_command.hpp"
#include "r_command.hpp"
#include "serve_command.hpp"
#include "set_commands.hpp"
#include "shape_command.hpp"
#include "validate_command.hpp"
#include <jobspec/version.hpp>

namespace {

/// The top-level application: its name, version and footer, with the report options.
void describe(CLI::App& app, jobspec::cli::Reporter& reporter) {
    app.set_version_flag("--version", std::string("jobspec ") + jobspec::version_string);
    app.require_subcommand(1);
    app.fallthrough(false);
    app.footer(
        R"(Every problem is a diagnostic with a stable code; 'jobspec explain CODE' says what it
means, with an example and its fix. Diagnostics go to stderr as text with carets, or
with --diagnostics json (or JOBSPEC_DIAGNOSTICS=json) as one JSON array for the whole
run: objects with file, severity, code, message, offset, length, line, column, pointer
and help, each when known (docs/DIAGNOSTICS.md). Control characters are shown escaped.
Colour on a terminal unless NO_COLOR is set. Where the fix is certain it is shown under
the caret, and 'jobspec --fix FILE' applies it.

Exit status: 0 success (warnings may be printed), 1 invalid input, 2 misuse (a bad
command line, or an input or output the system refuses).)");
    jobspec::cli::add_report_options(app, reporter);
}

constexpr const char* description =
    "jobspec: compile and check Flux job requests (shapes, jobspec, dependencies, "
    "constraints, R)";

/// The subcommands, each added to the application by its function.
struct Subcommand {
    std::string_view name;
    jobspec::cli::Command (*add)(CLI::App&, jobspec::cli::Reporter&);
};

constexpr Subcommand subcommands[] = {
    {"shape", jobspec::cli::add_shape_command},
    {"validate", jobspec::cli::add_validate_command},
    {"compile", jobspec::cli::add_compile_command},
    {"dependency", jobspec::cli::add_dependency_command},
    {"directives", jobspec::cli::add_directives_command},
    {"id", jobspec::cli::add_id_command},
    {"graph", jobspec::cli::add_graph_command},
    {"constraint", jobspec::cli::add_constraint_command},
    {"match", jobspec::cli::add_match_command},
    {"forecast", jobspec::cli::add_forecast_command},
    {"R", jobspec::cli::add_r_command},
    {"idset", jobspec::cli::add_idset_command},
    {"hostlist", jobspec::cli::add_hostlist_command},
    {"explain", jobspec::cli::add_explain_command},
    {"fix", jobspec::cli::add_fix_command},
    {"serve", jobspec::cli::add_serve_command},
    {"lsp", jobspec::cli::add_lsp_command},
};

/// The whole run of the program, its exit status.
int run(int argc, char** argv, jobspec::cli::Reporter& reporter) {
    using namespace jobspec::cli;
    // Only the command named is built (its options are most of a short run's start-up);
    // none for --version; all of them when none is named or the name is unknown, for
    // --help and suggestions.
    const int word = command_word(argc, argv);
    // `jobspec --fix FILE` is `jobspec fix FILE`, as linters spell it.
    static char fix_word[] = "fix";
    if (word < argc && std::string_view(argv[word]) == "--fix")
        argv[word] = fix_word;
    const std::string_view named = word < argc ? argv[word] : "";
    CLI::App app{description, "jobspec"};
    describe(app, reporter);
    if (named == "compile") // flux's option syntax, which compile reads itself
        return reporter.finish(run_compile_command(*add_compile_command(app, reporter).app, argc,
                                                   argv, word, reporter));
    const bool known =
        named == "--version" || std::any_of(std::begin(subcommands), std::end(subcommands),
                                            [&](const Subcommand& s) { return s.name == named; });
    std::vector<Command> commands;
    for (const auto& s : subcommands)
        if (!known || s.name == named)
            commands.push_back(s.add(app, reporter));
    for (auto& c : commands)
        c.app->set_version_flag("--version", std::string("jobspec ") + jobspec::version_string);

    if (const auto status = parse_command_line(app, argc, argv, reporter))
        return reporter.finish(*status);
    for (auto& c : commands)
        if (c.app->parsed())
            return reporter.finish(c.run());
    return reporter.finish(exit_usage);
}

} // namespace

int main(int argc, char** argv) {
    jobspec::cli::Reporter reporter("jobspec");
    // The safety net: memory running out anywhere is a diagnostic, never an abort.
    try {
        return run(argc, argv, reporter);
    } catch (const std::bad_alloc&) {
        return reporter.finish(std::max(
            jobspec::cli::exit_usage,
            reporter.report(jobspec::Code::api_internal, "out of memory",
                            "raise the memory limit, or lower --max-input-bytes")));
    }
}
