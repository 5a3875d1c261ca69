// `jobspec fix` (also `jobspec --fix`): applies the certain fixes of a batch script, a
// jobspec or a shape file, and says what it changed.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_fix_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
