// `jobspec shape`: compile an RFC 46 shape to canonical RFC 14 resources.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_shape_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
