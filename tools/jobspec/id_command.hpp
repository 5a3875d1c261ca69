// `jobspec id`: convert FLUID job ids between RFC 19 encodings.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_id_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
