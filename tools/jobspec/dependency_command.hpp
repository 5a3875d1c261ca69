// `jobspec dependency`: RFC 26 dependency URIs to JSON objects.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_dependency_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
