// `jobspec constraint`: RFC 35 queries and RFC 31 constraints, and the ranks of R they match.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_constraint_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
