// `jobspec directives`: the RFC 36 submission directives of a batch script, as JSON.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_directives_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
