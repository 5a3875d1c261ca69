// `jobspec idset` and `jobspec hostlist`: RFC 22 and RFC 29 sets from a shell.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_idset_command(CLI::App& parent, Reporter& reporter);
Command add_hostlist_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
