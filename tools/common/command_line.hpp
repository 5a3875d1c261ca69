// Reading the command line: CLI11 with errors that name what is wrong and suggest a fix.
#pragma once

#include <string>
#include <vector>

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

#include "reporter.hpp"

namespace jobspec::cli {

/// Parses the command line into `app` and its subcommands, and tells `reporter` which
/// subcommand was chosen. Unlike CLI11's own parse, an argument written "[...]" reaches
/// its option whole (CLI11 would split the hostlist "[1-3]" into a list). A bad command
/// line is reported as a usage.* diagnostic naming what is wrong, with "did you mean"
/// for a misspelt command or option; --help and --version print their text. Returns
/// nothing when the program should go on, else the exit status to end with.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, Reporter& reporter);

/// Where the subcommand's name is in argv: the first word after the report options
/// (--strict, --color[=]X, --diagnostics[=]X), or argc when there is none.
int command_word(int argc, char** argv);

/// Adds --diagnostics, --color and --strict, bound to the reporter's options.
void add_report_options(CLI::App& app, Reporter& reporter);

/// The values --diagnostics and --color take, for commands that read them without CLI11.
inline const std::vector<std::string> diagnostics_formats{"text", "json"};
inline const std::vector<std::string> color_modes{"auto", "always", "never"};

/// Adds --dialect (rfc or fluxion), for commands that read jobspec documents.
void add_dialect_option(CLI::App& app, Dialect& dialect);

/// Adds --max-depth, --max-input-bytes and --max-diagnostics.
void add_limit_options(CLI::App& app, Limits& limits);

/// Adds --max-vertices, for commands that read shapes or jobspecs.
void add_vertex_limit_option(CLI::App& app, Limits& limits);

/// Adds --max-constraint-terms, for commands that read constraints or jobspecs.
void add_constraint_limit_option(CLI::App& app, Limits& limits);

/// A check that the value is a whole number from `min` to `max`, with a message that says
/// so in words ("must be a whole number from 1 to 1000, not '0'").
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max = Limits::max_integer);

} // namespace jobspec::cli
