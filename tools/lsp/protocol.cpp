#include "protocol.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <poll.h>
#include <unistd.h>
#include <utility>
#include <variant>
#include <vector>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>

#include <jobspec/emit.hpp>
#include <jobspec/text.hpp>

namespace jobspec::cli::lsp {

namespace json = boost::json;

namespace {

/// How many bytes one read asks for; the buffer holds this and a header block.
constexpr std::size_t read_chunk = 64 * 1024;
/// The longest header block accepted (LSP's has one or two short lines).
constexpr std::size_t max_header_bytes = 8 * 1024;
/// What a value costs besides its characters, about.
constexpr std::size_t value_cost = 32;
constexpr std::string_view length_header = "content-length:";
/// Bad messages in a row that end reading: the input is not the protocol.
constexpr int max_errors_in_a_row = 100;
/// The most of a refused body dropped to reach the next message; past it the reader
/// looks for the next header instead (a Content-Length of 10^18 on an endless input).
constexpr std::uint64_t max_drop = std::uint64_t{1} << 30;

} // namespace

// Named, not anonymous: MessageReader::Impl holds a parser of it, and a member of a type
// with internal linkage would tie the class to this file.
namespace reading {

/// Builds the value of one message from Boost.JSON's parser events, keeping at most
/// max_string_bytes of each string and failing once the value would take more than
/// max_message_bytes.
class BoundedBuilder {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    explicit BoundedBuilder(const ReaderLimits& limits) : limits_(limits) {}

    /// Whether the last message failed because it was too large.
    bool too_large() const noexcept { return too_large_; }
    void out_of_memory() noexcept {
        too_large_ = true;
        stack_.reset();
    }
    json::value release() { return stack_.release(); }

    bool on_document_begin(json::error_code&) {
        stack_.reset();
        kept_ = 0;
        string_kept_ = 0;
        too_large_ = false;
        return true;
    }
    bool on_document_end(json::error_code&) { return true; }
    bool on_array_begin(json::error_code& ec) { return charge(value_cost, ec); }
    bool on_array_end(std::size_t n, json::error_code&) {
        stack_.push_array(n);
        return true;
    }
    bool on_object_begin(json::error_code& ec) { return charge(value_cost, ec); }
    bool on_object_end(std::size_t n, json::error_code&) {
        stack_.push_object(n);
        return true;
    }
    bool on_string_part(json::string_view s, std::size_t, json::error_code& ec) {
        s = clip(s);
        if (!charge(s.size(), ec))
            return false;
        stack_.push_chars(s);
        return true;
    }
    bool on_string(json::string_view s, std::size_t, json::error_code& ec) {
        s = clip(s);
        string_kept_ = 0;
        if (!charge(s.size() + value_cost, ec))
            return false;
        stack_.push_string(s);
        return true;
    }
    bool on_key_part(json::string_view s, std::size_t n, json::error_code& ec) {
        return on_string_part(s, n, ec);
    }
    bool on_key(json::string_view s, std::size_t, json::error_code& ec) {
        s = clip(s);
        string_kept_ = 0;
        if (!charge(s.size() + value_cost, ec))
            return false;
        stack_.push_key(s);
        return true;
    }
    bool on_number_part(json::string_view, json::error_code&) { return true; }
    bool on_int64(std::int64_t i, json::string_view, json::error_code& ec) {
        return charge(value_cost, ec) && (stack_.push_int64(i), true);
    }
    bool on_uint64(std::uint64_t u, json::string_view, json::error_code& ec) {
        return charge(value_cost, ec) && (stack_.push_uint64(u), true);
    }
    bool on_double(double d, json::string_view, json::error_code& ec) {
        return charge(value_cost, ec) && (stack_.push_double(d), true);
    }
    bool on_bool(bool b, json::error_code& ec) {
        return charge(value_cost, ec) && (stack_.push_bool(b), true);
    }
    bool on_null(json::error_code& ec) {
        return charge(value_cost, ec) && (stack_.push_null(), true);
    }
    bool on_comment_part(json::string_view, json::error_code&) { return true; }
    bool on_comment(json::string_view, json::error_code&) { return true; }

private:
    /// The part of `s` this string may still keep.
    json::string_view clip(json::string_view s) {
        const std::size_t room =
            limits_.max_string_bytes - std::min(string_kept_, limits_.max_string_bytes);
        s = s.substr(0, std::min(s.size(), room));
        string_kept_ += s.size();
        return s;
    }
    bool charge(std::size_t bytes, json::error_code& ec) {
        kept_ += bytes;
        if (kept_ <= limits_.max_message_bytes)
            return true;
        too_large_ = true;
        ec = json::error::object_too_large;
        return false;
    }

    ReaderLimits limits_;
    json::value_stack stack_;
    std::size_t kept_ = 0;
    std::size_t string_kept_ = 0;
    bool too_large_ = false;
};

} // namespace reading

namespace {

json::parse_options parse_options(const ReaderLimits& limits) {
    json::parse_options options;
    options.max_depth = limits.max_depth;
    return options;
}

bool whitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool token_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

} // namespace

class MessageReader::Impl {
public:
    Impl(int fd, ReaderLimits limits)
        : fd_(fd), limits_(limits), buffer_(read_chunk + max_header_bytes),
          parser_(parse_options(limits), limits) {}

    ReadResult next();

    bool input_pending(std::chrono::milliseconds wait) {
        if (begin_ < end_ || eof_)
            return true;
        pollfd p{fd_, POLLIN, 0};
        const auto until = std::chrono::steady_clock::now() + wait;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                until - std::chrono::steady_clock::now());
            const int n = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
            if (n >= 0 || errno != EINTR)
                return n > 0;
        }
    }

private:
    std::size_t buffered() const { return end_ - begin_; }
    const char* data() const { return buffer_.data() + begin_; }

    /// Reads more input into the buffer, waiting for it; false at the end of input.
    bool fill() {
        if (eof_)
            return false;
        if (begin_ == end_)
            begin_ = end_ = 0;
        if (end_ == buffer_.size()) {
            std::memmove(buffer_.data(), data(), buffered());
            end_ -= begin_;
            begin_ = 0;
        }
        for (;;) {
            const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
            if (n > 0) {
                end_ += static_cast<std::size_t>(n);
                return true;
            }
            if (n < 0 && errno == EINTR)
                continue;
            eof_ = true;
            return false;
        }
    }

    /// Drops `drop_` bytes (the rest of a refused body); false at the end of input.
    bool drop() {
        while (drop_ > 0) {
            if (buffered() == 0 && !fill())
                return false;
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(drop_, buffered()));
            begin_ += n;
            drop_ -= n;
        }
        return true;
    }

    /// Skips the whitespace a body may have after its JSON, up to `trailing_` bytes; stops
    /// at anything else, which is then read as the next header (the Content-Length was
    /// too long). False at the end of input.
    bool skip_trailing() {
        while (trailing_ > 0) {
            if (buffered() == 0 && !fill())
                return false;
            if (!whitespace(*data())) {
                note_ = "a message was shorter than its Content-Length; the next one was "
                        "read from where it ended";
                trailing_ = 0;
                break;
            }
            ++begin_;
            --trailing_;
        }
        return true;
    }

    /// Drops input up to the next "Content-Length:" (in any case); false at the end, or
    /// when there is none in max_message_bytes (then `gave_up_` says why).
    bool resynchronize() {
        std::uint64_t dropped = 0;
        for (;;) {
            const char* p = data();
            const std::size_t n = buffered();
            for (std::size_t i = 0; i + length_header.size() <= n; ++i) {
                std::size_t k = 0;
                while (k < length_header.size() && lower(p[i + k]) == length_header[k])
                    ++k;
                if (k == length_header.size()) {
                    begin_ += i;
                    resync_ = false;
                    return true;
                }
            }
            // Keep what could be the start of the header.
            if (n >= length_header.size()) {
                begin_ += n - (length_header.size() - 1);
                dropped += n - (length_header.size() - 1);
            }
            if (dropped > std::max<std::uint64_t>(limits_.max_message_bytes, max_header_bytes)) {
                gave_up_ = "standard input is not the Language Server Protocol: no "
                           "'Content-Length:' header in " +
                           std::to_string(dropped) + " bytes";
                return false;
            }
            if (!fill())
                return false;
        }
    }

    ReadResult framing_error(std::string message) {
        ++begin_; // look for the next header after this one's start
        resync_ = true;
        return {ReadResult::Kind::error, nullptr, error_code::parse_error, std::move(message), {}};
    }

    /// Reads a header block; the Content-Length, or an error.
    std::variant<std::uint64_t, ReadResult> header();
    ReadResult body(std::uint64_t length);

    int fd_;
    ReaderLimits limits_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    bool eof_ = false;
    bool resync_ = false;
    std::uint64_t drop_ = 0;
    std::uint64_t trailing_ = 0;
    int errors_in_a_row_ = 0;
    std::string note_;
    std::string gave_up_;
    json::basic_parser<reading::BoundedBuilder> parser_;
};

std::variant<std::uint64_t, ReadResult> MessageReader::Impl::header() {
    // Blank lines between messages are not worth an error.
    for (;;) {
        while (buffered() > 0 && (*data() == '\r' || *data() == '\n'))
            ++begin_;
        if (buffered() > 0)
            break;
        if (!fill())
            return ReadResult{};
    }
    // The whole block, up to its blank line, in the buffer.
    std::size_t block = 0;
    for (;;) {
        const std::string_view text(data(), buffered());
        const std::size_t lf = text.find("\n\n");
        const std::size_t crlf = text.find("\n\r\n");
        const std::size_t end =
            std::min(lf == text.npos ? lf : lf + 2, crlf == text.npos ? crlf : crlf + 3);
        if (end != text.npos) {
            block = end;
            break;
        }
        if (buffered() > max_header_bytes)
            return framing_error("a message header longer than " +
                                 std::to_string(max_header_bytes) + " bytes");
        if (!fill())
            return ReadResult{};
    }
    std::optional<std::uint64_t> length;
    std::string_view lines(data(), block);
    while (!lines.empty()) {
        std::string_view line = lines.substr(0, lines.find('\n'));
        lines.remove_prefix(std::min(lines.size(), line.size() + 1));
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            break;
        const std::size_t colon = line.find(':');
        if (colon == 0 || colon == line.npos ||
            !std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                         token_char))
            return framing_error("a message header line is not 'Name: value'");
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
            value.remove_prefix(1);
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
            value.remove_suffix(1);
        std::string name(line.substr(0, colon));
        std::transform(name.begin(), name.end(), name.begin(), lower);
        if (name != "content-length")
            continue; // Content-Type: only UTF-8 JSON is spoken
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (value.empty() || ec != std::errc{} || end != value.data() + value.size())
            return framing_error("the Content-Length '" + visible_text(value.substr(0, 40)) +
                                 "' is not a number of bytes");
        if (length && *length != n)
            return framing_error("two different Content-Length headers");
        length = n;
    }
    if (!length)
        return framing_error("a message without a Content-Length header");
    begin_ += block;
    return *length;
}

ReadResult MessageReader::Impl::body(std::uint64_t length) {
    parser_.reset();
    json::error_code ec;
    std::uint64_t remaining = length;
    const auto failed = [&]() {
        drop_ = remaining <= max_drop ? remaining : 0;
        resync_ = true;
        if (parser_.handler().too_large())
            return ReadResult{ReadResult::Kind::error,
                              nullptr,
                              error_code::invalid_request,
                              "the message is larger than the server accepts (" +
                                  std::to_string(limits_.max_message_bytes) + " bytes)",
                              {}};
        return ReadResult{ReadResult::Kind::error,
                          nullptr,
                          error_code::parse_error,
                          "the message is not JSON: " + ec.message(),
                          {}};
    };
    static constexpr char none[1] = {};
    try {
        while (remaining > 0 && !parser_.done()) {
            if (buffered() == 0 && !fill())
                return ReadResult{};
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(remaining, buffered()));
            const std::size_t used = parser_.write_some(true, data(), n, ec);
            if (ec) {
                begin_ += n;
                remaining -= n;
                return failed();
            }
            begin_ += used;
            remaining -= used;
        }
        if (!parser_.done()) {
            parser_.write_some(false, none, 0, ec);
            if (ec)
                return failed();
        }
    } catch (const std::bad_alloc&) {
        // Memory ran out below the message bound: the message is refused as too large.
        parser_.handler().out_of_memory();
        return failed();
    }
    trailing_ = remaining;
    return {ReadResult::Kind::message, parser_.handler().release(), 0, {}, {}};
}

ReadResult MessageReader::Impl::next() {
    note_.clear();
    ReadResult out;
    if (drop() && skip_trailing() && (!resync_ || resynchronize())) {
        auto length = header();
        out = std::holds_alternative<ReadResult>(length) ? std::move(std::get<ReadResult>(length))
                                                         : body(std::get<std::uint64_t>(length));
    }
    if (out.kind == ReadResult::Kind::end) {
        out.error = std::move(gave_up_);
        eof_ = true; // and so at every call from now on
        begin_ = end_;
        return out;
    }
    if (out.kind == ReadResult::Kind::message) {
        errors_in_a_row_ = 0;
        out.note = std::move(note_);
    } else if (++errors_in_a_row_ >= max_errors_in_a_row) {
        eof_ = true;
        begin_ = end_;
        return {ReadResult::Kind::end,
                nullptr,
                0,
                "standard input is not the Language Server Protocol: " +
                    std::to_string(max_errors_in_a_row) + " bad messages in a row",
                {}};
    }
    return out;
}

MessageReader::MessageReader(int fd, ReaderLimits limits)
    : impl_(std::make_unique<Impl>(fd, limits)) {}
MessageReader::~MessageReader() = default;
ReadResult MessageReader::next() {
    return impl_->next();
}
bool MessageReader::input_pending(std::chrono::milliseconds wait) {
    return impl_->input_pending(wait);
}

bool MessageWriter::send(const json::value& message) {
    const std::string body = to_json_text(message);
    std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    out += body;
    const char* p = out.data();
    std::size_t left = out.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

json::value response(const json::value& id, json::value result) {
    return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json::value error_response(const json::value& id, int code, std::string_view message) {
    return json::object{{"jsonrpc", "2.0"},
                        {"id", id},
                        {"error", json::object{{"code", code}, {"message", message}}}};
}

json::value notification(std::string_view method, json::value params) {
    return json::object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

Method method_of(std::string_view name) noexcept {
    static constexpr std::array<std::pair<std::string_view, Method>, 9> methods{{
        {"initialize", Method::initialize},
        {"shutdown", Method::shutdown},
        {"exit", Method::exit},
        {"textDocument/hover", Method::hover},
        {"textDocument/completion", Method::completion},
        {"textDocument/codeAction", Method::code_action},
        {"textDocument/didOpen", Method::did_open},
        {"textDocument/didChange", Method::did_change},
        {"textDocument/didClose", Method::did_close},
    }};
    for (const auto& [said, method] : methods)
        if (said == name)
            return method;
    return Method::other;
}

} // namespace jobspec::cli::lsp
