// `jobspec hostlist`: RFC 29 hostlists from a shell, the way `flux hostlist` works.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_hostlist_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
