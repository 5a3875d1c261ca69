#include "compile_command.hpp"

#include "command_line.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::cli {

namespace {

/// jobspec's own options of `compile`, taken out of the flux options wherever they are.
struct ToolOptions {
    SubmitCommand command = SubmitCommand::run;
    std::string command_name = "run";
    std::string format = "json";
    bool pretty = false;
    bool help = false;
    Dialect dialect = Dialect::rfc;
    Limits limits;
};

/// A limit's value: a positive integer (Limits::set refuses 0).
std::optional<std::uint64_t> parse_count(std::string_view text) {
    std::uint64_t n = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    return n;
}

/// One pass over the option part of `words`: jobspec's own options are taken out into
/// `tool` (--batch and its kind take effect where they stand, deciding what the flux
/// options after them mean), flux's are stepped over by their span. False (reported)
/// for an own option without its value or with a bad one.
bool take_tool_options(std::vector<std::string>& words, ToolOptions& tool, Reporter& out,
                       int& status) {
    std::size_t i = 0;
    while (i < words.size()) {
        const std::string& w = words[i];
        const std::string name = w.substr(0, w.find('='));
        const bool joined = name.size() < w.size();
        std::size_t used = 1;
        if (w == "--batch" || w == "--alloc" || w == "--submit" || w == "--run") {
            tool.command_name = w.substr(2);
            tool.command = *submit_command_named(tool.command_name);
        } else if (w == "--pretty" || w == "--strict" || w == "--help") {
            tool.pretty = tool.pretty || w == "--pretty";
            out.options().strict = out.options().strict || w == "--strict";
            tool.help = tool.help || w == "--help";
        } else if (name == "--format" || name == "--dialect" || name == "--color" ||
                   name == "--diagnostics" || name == "--max-input-bytes" ||
                   name == "--max-depth" || name == "--max-diagnostics") {
            if (!joined && i + 1 >= words.size()) {
                status = out.usage(Code::usage_missing_argument, name + " needs a value");
                return false;
            }
            const std::string value = joined ? w.substr(name.size() + 1) : words[i + 1];
            used = joined ? 1 : 2;
            if (name == "--color" || name == "--diagnostics") {
                // Checked against the values CLI11 checks for the other commands.
                const auto& known = name == "--color" ? color_modes : diagnostics_formats;
                if (std::find(known.begin(), known.end(), value) == known.end()) {
                    status = out.usage(
                        Code::usage_option_value,
                        fmt::format("{}: {} not in {{{}}}", name, value, fmt::join(known, ",")));
                    return false;
                }
                (name == "--color" ? out.options().color : out.options().format) = value;
            } else if (name == "--format") {
                tool.format = value;
            } else if (name == "--dialect") {
                const auto dialect = dialect_named(value);
                if (!dialect) {
                    status = out.usage(Code::usage_option_value,
                                       "--dialect: '" + value + "' is not rfc or fluxion");
                    return false;
                }
                tool.dialect = *dialect;
            } else if (const auto n = parse_count(value);
                       !n || !tool.limits.set(name.substr(2), *n)) {
                status = out.usage(Code::usage_option_value,
                                   name + ": '" + value + "' is not a limit it takes");
                return false;
            }
        } else {
            const std::size_t span = submit_option_span(words, i, tool.command);
            if (span == 0)
                break;
            i += span;
            continue;
        }
        words.erase(words.begin() + static_cast<std::ptrdiff_t>(i),
                    words.begin() + static_cast<std::ptrdiff_t>(i + used));
    }
    if (tool.format != "json" && tool.format != "yaml") {
        status = out.usage(Code::usage_option_value,
                           "--format: '" + tool.format + "' is not json or yaml");
        return false;
    }
    return true;
}

/// The flux options read for the tool's command, wrapped to 80 columns, for --help.
std::string flux_options_read(const ToolOptions& tool) {
    std::string out = fmt::format("The options of 'flux {}' that compile reads (--submit, "
                                  "--batch and --alloc\nchange the list):\n",
                                  tool.command_name);
    std::size_t column = 0;
    for (const auto& usage : submit_option_usages(tool.command)) {
        if (column > 0 && column + 2 + usage.size() > 80) {
            out += "\n";
            column = 0;
        }
        out += "  ";
        out += usage;
        column += 2 + usage.size();
    }
    return out + "\n";
}

int run_compile(const std::vector<std::string>& given, CLI::App& app, Reporter& out) {
    std::vector<std::string> words = given;
    ToolOptions tool;
    int status = exit_ok;
    if (!take_tool_options(words, tool, out, status))
        return status;
    if (tool.help) {
        // The footer is the whole story: compile takes flux's options, not CLI11's.
        std::cout << app.get_description() << "\n\n"
                  << app.get_footer() << "\n\n"
                  << flux_options_read(tool);
        return exit_ok;
    }
    SubmitOptions start;
    start.command = tool.command;
    SubmitContext context = current_submit_context();
    context.limits = tool.limits;
    context.dialect = tool.dialect;
    auto options = read_submission(words, start, context);
    // A directive's option that flux rejects is misuse (exit 2), as on the command line.
    const bool misuse =
        std::any_of(options.diagnostics().begin(), options.diagnostics().end(),
                    [](const Diagnostic& d) { return d.code == Code::directive_option; });
    if (const int s = out.outcome(options); s != exit_ok)
        return misuse ? exit_usage : s;
    auto result = compile_submission(options.value(), context);
    if (const int s = out.outcome(result); s != exit_ok)
        return s;
    const auto& value = result.value();
    std::string text;
    if (tool.format == "yaml")
        text = to_yaml_text(value);
    else if (tool.pretty)
        text = to_json_text(value, true);
    else
        text = to_flux_json_text(value) + "\n";
    return write_output(text, out);
}

} // namespace

int run_compile_command(CLI::App& compile, int argc, char** argv, int word, Reporter& reporter) {
    // The global options before "compile" go through CLI11 alone.
    std::vector<std::string> globals(argv, argv + word);
    std::vector<char*> pointers;
    for (auto& g : globals)
        pointers.push_back(g.data());
    CLI::App globals_only;
    globals_only.allow_extras();
    add_report_options(globals_only, reporter);
    if (const auto status = parse_command_line(globals_only, static_cast<int>(pointers.size()),
                                               pointers.data(), reporter))
        return *status;
    reporter.set_command("compile");
    return run_compile(std::vector<std::string>(argv + word + 1, argv + argc), compile, reporter);
}

Command add_compile_command(CLI::App& parent, Reporter& reporter) {
    CLI::App* app = parent.add_subcommand(
        "compile", "Build the jobspec that 'flux run/submit/batch/alloc --dry-run' prints, "
                   "from the same options");
    app->allow_extras();
    app->footer(R"(Usage: jobspec compile [--submit|--batch|--alloc] [OPTIONS...] COMMAND [ARGS...]

The options are those of flux-core 0.88's 'flux run' (or 'flux submit' with --submit,
'flux batch' with --batch, 'flux alloc' with --alloc), read as flux reads them: option
parsing stops at the first word that is not an option, long options are never abbreviated,
-t takes minutes or a Flux Standard Duration (30s, 5m, 1.5h, 2d). The output is the JSON
'flux ... --dry-run' prints, checked against RFC 14 (and RFC 25 V1 unless the resources come
from --resources-shape or --resources-json); docs/COMPAT.md lists every difference.

Options of jobspec, which flux does not have (anywhere before the command):
  --submit, --batch, --alloc   build what flux submit / flux batch / flux alloc would
  --env-none                   start from an empty environment instead of a copy of this
                               one (flux's equivalent is --env=-* first)
  --shape SHAPE                the same as --resources-shape SHAPE
  --format json|yaml           output format (json: exactly as flux prints it)
  --dialect rfc|fluxion        also check what is built as Fluxion's reader reads it
                               (fluxion.* errors; flux-core 0.88 builds nothing it refuses)
  --pretty                     indented JSON
  --color, --diagnostics, --strict   as for every jobspec command
  --max-input-bytes N, --max-depth N, --max-diagnostics N
                               limits, as for every jobspec command (files that options
                               name, a batch script, and what is built from them)
  --help                       this text

How options become resources (as flux lays them out):
  -N4                 node=4!/slot=1/core=1 (nodes alone are exclusive)
  -n10 -c2 -g1        slot=10/[core=2;gpu=1]
  -n16 -N4 -g1        node=4/slot=4/[core=1;gpu=1]
  -n5 -N4             node=4/slot=2/core=1, total 5 tasks
  --cores=8 -N2       node=2/slot=1/core=4 (per-resource mode)

Examples:
  jobspec compile --env-none --rlimit=-* -N4 -n16 -g1 app
  jobspec compile --batch -N2 job.sh

Exit status: 0 success, 1 a value or layout flux rejects, 2 a bad command line.)");
    return Command{app, [app, &reporter] { return run_compile(app->remaining(), *app, reporter); }};
}

} // namespace jobspec::cli
