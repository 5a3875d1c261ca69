// `jobspec match`: whether a jobspec fits R, through the one matching door.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_match_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
