// `jobspec explain`: what a diagnostic code means, with a failing example and its fix.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_explain_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
