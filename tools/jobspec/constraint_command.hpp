// `jobspec constraint` and `jobspec match`: constraints, and whether a jobspec fits R.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_constraint_command(CLI::App& parent, Reporter& reporter);
Command add_match_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
