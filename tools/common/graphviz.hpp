// Rendering DOT text with Graphviz, for the --svg options.
#pragma once

#include <string>
#include <string_view>

namespace jobspec::cli {

/// Runs `dot -Tsvg` on `dot_text`, writing the picture to `path`. Returns exit_ok, or
/// exit_usage with a message on stderr: when dot is not installed (saying how to get
/// it), cannot run, or fails.
int write_svg(std::string_view dot_text, const std::string& path);

} // namespace jobspec::cli
