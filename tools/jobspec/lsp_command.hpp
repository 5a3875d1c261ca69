// `jobspec lsp`: a Language Server Protocol server on standard input and output, so that
// editors show jobspec's diagnostics, quick fixes, hover text and completions as you type.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_lsp_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
