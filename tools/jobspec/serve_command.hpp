// `jobspec serve`: the playground, a local web page where a request is compiled as it is typed.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_serve_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
