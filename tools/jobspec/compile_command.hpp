// `jobspec compile`: the jobspec flux run/submit/batch/alloc --dry-run prints.
#pragma once

#include <optional>

#include "cli_support.hpp"

namespace jobspec::cli {

/// Registers `compile` (for --help and the command list).
Command add_compile_command(CLI::App& parent, Reporter& reporter);

/// When the command line is `jobspec [--color/--diagnostics/--strict...] compile ARGS`,
/// runs compile on ARGS (flux's option syntax, which CLI11 cannot read) and returns its
/// exit status; else nothing.
std::optional<int> run_compile_command(CLI::App& parent, int argc, char** argv, Reporter& reporter);

} // namespace jobspec::cli
