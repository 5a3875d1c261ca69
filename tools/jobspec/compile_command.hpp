// `jobspec compile`: build a jobspec from a shape or srun-style options and a command.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_compile_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
