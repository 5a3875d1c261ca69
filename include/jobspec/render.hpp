// Rendering diagnostics for people (compiler-style caret snippets) and for tools (JSON).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <boost/json/array.hpp>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

struct RenderOptions {
    /// ANSI colours (the CLI turns them on for a terminal, never when NO_COLOR is set).
    bool color = false;
    /// A file name shown as "--> name:line:column"; empty for command-line strings, whose
    /// single line is shown without it.
    std::string_view source_name;
    /// The number of the source's first line, when it is one line of a longer input (a
    /// line of standard input read alone): positions then count from it.
    std::size_t first_line = 1;
};

/// One block per diagnostic, safe to print on a terminal (control and bidirectional
/// characters of the source, messages and names are shown escaped, see docs/DIAGNOSTICS.md):
///   error[shape.range-order]: range maximum 1 is below its minimum 3
///     slot=3-1/core
///          ^~~
/// with a "--> name:line:column" line for named or multi-line sources, the JSON pointer
/// when there is one, and a "help:" line when the diagnostic has a hint. Lines longer
/// than 100 columns are shown as a window around the range. `source` is the text the
/// ranges point into (may be empty when no diagnostic has a range).
JOBSPEC_API std::string render_text(const Diagnostics& diagnostics, std::string_view source,
                                    const RenderOptions& options = {});

/// The errors on one line, for a host that shows a single line per failure (a job that a
/// Flux plugin rejects): "CODE at POINTER: message" for each error (without " at POINTER"
/// when there is none), joined by "; ", at most `max_shown` of them and then "; and N
/// more". With `max_bytes` (0: no limit) only the errors that fit whole are shown, and
/// the first one cut short ("...") when even it does not. Terminal-safe like render_text,
/// and never a newline. Warnings are shown only when there is no error; "" when there
/// is neither.
///   jobspec.count-not-positive at /resources/0/count: 'count' must be at least 1, not 0
JOBSPEC_API std::string render_line(const Diagnostics& diagnostics, std::size_t max_bytes = 0,
                                    std::size_t max_shown = 3);

/// The most bytes a Flux plugin's one-line verdict has (render_line's max_bytes): what a
/// flux_error_t holds less its NUL, all flux-core passes on from a jobtap plugin. Every
/// plugin holds its rejections to it (JOBSPEC_FLUX_VERDICT_BYTES in the C API).
inline constexpr std::size_t flux_verdict_bytes = 159;

/// The diagnostics as a JSON array (docs/DIAGNOSTICS.md), one object each with "severity",
/// "code", "message", and where known "file" (`file`, when not empty), "offset", "length"
/// (bytes), "line", "column" (from 1, in code points; lines from `first_line` as in
/// RenderOptions), "pointer" and "help".
JOBSPEC_API boost::json::array diagnostics_to_json(const Diagnostics& diagnostics,
                                                   std::string_view source,
                                                   std::string_view file = {},
                                                   std::size_t first_line = 1);

/// diagnostics_to_json as compact JSON text ending with a newline.
JOBSPEC_API std::string render_json(const Diagnostics& diagnostics, std::string_view source,
                                    std::string_view file = {});

/// A place in a text as people count: line and column, both from 1, columns in code points.
struct TextPosition {
    std::size_t line = 0;
    std::size_t column = 0;
};

/// Where byte `offset` of `source` is; {0, 0} when the offset is past the end.
JOBSPEC_API TextPosition text_position(std::string_view source, std::size_t offset);

} // namespace jobspec
