// `jobspec idset`: RFC 22 idsets from a shell.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_idset_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
