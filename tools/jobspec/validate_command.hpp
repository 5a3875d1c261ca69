// `jobspec validate`: check jobspec documents (canonical RFC 14, or V1 RFC 25).
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_validate_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
