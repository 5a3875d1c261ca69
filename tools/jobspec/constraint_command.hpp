// `jobspec constraint` and `jobspec match`: constraints, and whether a jobspec fits R.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_constraint_command(CLI::App& parent);
Command add_match_command(CLI::App& parent);

} // namespace jobspec::cli
