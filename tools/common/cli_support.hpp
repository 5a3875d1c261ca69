// What the jobspec and jobspec-grammar commands share: options, reading inputs, reporting.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include <jobspec/limits.hpp>

#include "command_line.hpp"
#include "reporter.hpp"

namespace jobspec::cli {

/// Options every subcommand takes besides the reporting ones.
struct CommonOptions {
    bool pretty = false;
    Limits limits;
};

/// A subcommand: its CLI11 app and what runs when it was chosen.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

/// Adds --diagnostics, --color, --strict (bound to `reporter`), --pretty, --max-depth,
/// --max-input-bytes and --max-diagnostics to `app`.
void add_common_options(CLI::App& app, CommonOptions& options, Reporter& reporter);

/// Writes `text` to stdout; exit_invalid (reported) when the write fails.
int write_output(std::string_view text, Reporter& reporter);

} // namespace jobspec::cli
