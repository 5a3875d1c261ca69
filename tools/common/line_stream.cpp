#include "line_stream.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <unistd.h>

#include <fmt/format.h>

namespace jobspec::cli {

bool LineStream::fill(Reporter& reporter, int& status) {
    if (done_)
        return false;
    char block[65536];
    while (true) {
        const ssize_t got = ::read(STDIN_FILENO, block, sizeof block);
        if (got > 0) {
            buffer_.append(block, static_cast<std::size_t>(got));
            return true;
        }
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            status = std::max(status, reporter.report(Code::io_unreadable,
                                                      fmt::format("cannot read '<stdin>': {}",
                                                                  std::strerror(errno))));
        done_ = true;
        return false;
    }
}

std::optional<std::string> LineStream::next(Reporter& reporter, int& status) {
    if (given_up_)
        return std::nullopt;
    // Blank lines held back come out first, once a line that is not blank has been seen.
    if (content_seen_ && next_held_ < held_.size()) {
        line_ = read_ - (held_.size() - next_held_) + 1;
        return held_[next_held_++];
    }
    held_.clear();
    next_held_ = 0;
    while (auto line = given_up_ ? std::nullopt : raw(reporter, status)) {
        const bool blank = line->find_first_not_of(" \t\r\f\v") == std::string::npos;
        if (content_seen_ || !blank) {
            if (!content_seen_ && !held_.empty()) {
                // The first line with content: the blank ones before it come out first.
                content_seen_ = true;
                held_.push_back(std::move(*line));
                return next(reporter, status);
            }
            content_seen_ = true;
            line_ = read_;
            return line;
        }
        held_.push_back(std::move(*line));
    }
    // Nothing but whitespace is no input, as for every reader (io.empty).
    if (!content_seen_ && !given_up_ && status == exit_ok)
        status = std::max(status, reporter.report(Code::io_empty, "<stdin> is empty"));
    return std::nullopt;
}

bool LineStream::bad(Reporter& reporter, int& status) {
    if (bad_lines_left_ > 0 && --bad_lines_left_ > 0)
        return true;
    status = std::max(status, reporter.report(Code::limit_diagnostics,
                                              fmt::format("too many bad lines; stopped after "
                                                          "line {} of <stdin>",
                                                          line_),
                                              "raise the limit with --max-diagnostics"));
    given_up_ = true;
    return false;
}

std::optional<std::string> LineStream::raw(Reporter& reporter, int& status) {
    std::size_t searched = 0;
    while (true) {
        const std::size_t newline = buffer_.find('\n', searched);
        const std::size_t end = newline == std::string::npos ? buffer_.size() : newline;
        if (end > limit_) {
            // Where a line this long ends is not looked for: the stream ends here.
            line_ = read_ + 1;
            status = std::max(
                status, reporter.report(Code::limit_input_size,
                                        fmt::format("<stdin> is longer than the limit of {} "
                                                    "bytes on line {}",
                                                    limit_, line_),
                                        "raise the limit with --max-input-bytes"));
            given_up_ = true;
            return std::nullopt;
        }
        if (newline != std::string::npos || (done_ && !buffer_.empty())) {
            std::string line = buffer_.substr(0, end);
            buffer_.erase(0, newline == std::string::npos ? end : end + 1);
            ++read_;
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            return line;
        }
        searched = buffer_.size();
        if (!fill(reporter, status) && buffer_.empty())
            return std::nullopt;
    }
}

} // namespace jobspec::cli
