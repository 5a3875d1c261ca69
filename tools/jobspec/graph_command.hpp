// `jobspec graph`: pictures (Graphviz DOT) and structure of what a request means.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_graph_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
