// Rendering DOT text with Graphviz, for the --svg options.
#pragma once

#include <string>
#include <string_view>

#include "reporter.hpp"

namespace jobspec::cli {

/// Runs `dot -Tsvg` on `dot_text`, writing the picture to `path` as a new file
/// (write_new_file_from: never through what `path` names now). Returns exit_ok, or
/// exit_usage with an io.unwritable usage error reported: when dot is not installed
/// (saying how to get it), cannot run, or fails, or the file cannot be written.
int write_svg(std::string_view dot_text, const std::string& path, Reporter& reporter);

} // namespace jobspec::cli
