// Drawing DOT text as SVG with Graphviz, bounded in time and size: the playground's
// pictures and the tools' --svg files.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace jobspec::cli {

/// An SVG picture, or why there is none.
struct Picture {
    std::string svg;
    std::string error;

    bool ok() const noexcept { return error.empty(); }
};

/// Runs Graphviz's `dot -Tsvg` (found on PATH, started without a shell) with `dot_text` on
/// its standard input. The picture, or an error: dot is not installed, failed (its first
/// line of complaint), ran longer than `timeout` or wrote more than `max_output` bytes (in
/// both cases it is killed). Never leaves a process behind.
Picture render_svg(std::string_view dot_text, std::chrono::milliseconds timeout,
                   std::size_t max_output = std::size_t{16} << 20);

} // namespace jobspec::cli
