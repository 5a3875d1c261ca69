// `jobspec R`: resource sets (RFC 20) from a shell, the way `flux R` does.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_r_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
