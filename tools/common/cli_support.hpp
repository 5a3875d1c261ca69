// What the jobspec and jobspec-grammar commands share: options, reading inputs, reporting.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::cli {

/// Exit statuses: 0 success (warnings may be printed), 1 invalid input, 2 usage error.
inline constexpr int exit_ok = 0;
inline constexpr int exit_invalid = 1;
inline constexpr int exit_usage = 2;

/// Options every subcommand takes.
struct CommonOptions {
    std::string diagnostics = "text";
    std::string color = "auto";
    bool strict = false;
    bool pretty = false;
    Limits limits;
};

/// A subcommand: its CLI11 app and what runs when it was chosen.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

/// Parses the command line into `app` and its subcommands. Unlike CLI11's own parse, an
/// argument written "[...]" reaches its option whole: CLI11 splits such arguments into
/// lists, which would turn the hostlist "[1-3]" into the host "1-3". Throws what CLI11
/// throws (CLI::ParseError).
void parse_command_line(CLI::App& app, int argc, char** argv);

/// Adds --diagnostics, --color, --strict, --pretty, --max-depth, --max-input-bytes and
/// --max-diagnostics to `app`.
void add_common_options(CLI::App& app, CommonOptions& options);

/// Adds the option choosing how diagnostics print (named `format_flag`) and --color.
void add_report_options(CLI::App& app, CommonOptions& options, const std::string& format_flag);

/// Adds --max-depth, --max-input-bytes and --max-diagnostics.
void add_limit_options(CLI::App& app, Limits& limits);

/// The text of an argument: itself, or standard input when it is "-". Nothing (with a
/// message on stderr) when standard input cannot be read.
std::optional<std::string> read_argument(const std::string& argument);

/// The contents of a file, or of standard input for "-". Nothing (with a message on
/// stderr) when it cannot be read.
std::optional<std::string> read_file(const std::string& path);

/// How diagnostics name the input read from `path`: the path, or "<stdin>" for "-".
std::string_view source_name(const std::string& path);

/// Prints `diagnostics` on stderr in the chosen format and returns the exit status they
/// mean: exit_invalid when there is an error (with --strict, a warning too), else exit_ok.
int report(Diagnostics& diagnostics, std::string_view source, const CommonOptions& options,
           std::string_view source_name = {});

/// Writes `text` to stdout; exit_invalid (with a message) when the write fails.
int write_output(std::string_view text);

} // namespace jobspec::cli
