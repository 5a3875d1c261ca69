// Standard input a line at a time, for the commands users pipe lists into.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <jobspec/limits.hpp>

#include "reporter.hpp"

namespace jobspec::cli {

/// Standard input read one line at a time (ids from `flux jobs`, idsets): memory is
/// bounded by the longest line allowed, never by the stream, and each line's number is
/// known for its diagnostics. Input of nothing but whitespace is io.empty, as for every
/// input; and the stream is given up after limits.max_diagnostics bad lines, so an
/// endless stream of them ends.
class LineStream {
public:
    /// limits.max_input_bytes bounds one line, not the stream.
    explicit LineStream(const Limits& limits)
        : limit_(limits.max_input_bytes), bad_lines_left_(limits.max_diagnostics) {}

    /// The next line, without its newline (or the "\r\n"), or nothing at the end of the
    /// stream, on a read error, when the input was all whitespace (io.empty), after a
    /// line longer than the limit (limit.input-size: the stream ends there, as an
    /// endless line would never), or after too many bad lines (limit.diagnostics); each
    /// reported, `status` raised. Blank lines before the first that is not come out only
    /// once that one has.
    std::optional<std::string> next(Reporter& reporter, int& status);

    /// The number of the line next() returned last, from 1.
    std::size_t line() const noexcept { return line_; }

    /// Says the line next() returned last was bad (reported by the caller); false, with
    /// limit.diagnostics reported, when that was one too many.
    bool bad(Reporter& reporter, int& status);

private:
    /// The next line as it is, blank or not.
    std::optional<std::string> raw(Reporter& reporter, int& status);
    /// Reads more of standard input into buffer_; false at the end or on an error.
    bool fill(Reporter& reporter, int& status);

    std::size_t limit_;
    std::size_t bad_lines_left_;
    std::string buffer_;
    std::size_t read_ = 0;
    std::size_t line_ = 0;
    bool done_ = false;
    bool given_up_ = false;
    /// Blank lines held back until a line that is not blank is seen.
    std::vector<std::string> held_;
    std::size_t next_held_ = 0;
    bool content_seen_ = false;
};

} // namespace jobspec::cli
