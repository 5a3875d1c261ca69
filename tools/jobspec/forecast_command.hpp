// `jobspec forecast`: when each pending job of a described instance starts.
#pragma once

#include "cli_support.hpp"

namespace jobspec::cli {

Command add_forecast_command(CLI::App& parent, Reporter& reporter);

} // namespace jobspec::cli
