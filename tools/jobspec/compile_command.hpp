// `jobspec compile`: the jobspec flux run/submit/batch/alloc --dry-run prints.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

/// Registers `compile` (for --help and the command list).
Command add_compile_command(CLI::App& parent, Reporter& reporter);

/// Runs `jobspec [--color/--diagnostics/--strict...] compile ARGS`, where argv[word] is
/// "compile" (see command_word) and `compile` the app add_compile_command made: the
/// report options before it go through CLI11, ARGS are read as flux reads them (CLI11
/// cannot). Returns the exit status.
int run_compile_command(CLI::App& compile, int argc, char** argv, int word, Reporter& reporter);

} // namespace jobspec::cli
