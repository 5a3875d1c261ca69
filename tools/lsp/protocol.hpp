// The Language Server Protocol's base protocol: JSON-RPC 2.0 messages, each a header
// ("Content-Length: N\r\n\r\n") and a JSON body of N bytes, on a pair of file descriptors.
//
// Reading is bounded: a body is parsed as it arrives, never held whole, and the value
// built from it keeps at most `max_string_bytes` of each string (a document's text over
// the limit is kept as its first limit + 1 bytes, which is enough to know it is over)
// and at most `max_message_bytes` in all; a message that needs more is refused and the
// rest of it read and dropped. A header that cannot be read is refused and the reader
// looks for the next "Content-Length:", so one bad message does not end the session; an
// input where none is found in max_message_bytes, or that has 100 bad messages in a row,
// is not the protocol, and reading ends there.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace jobspec::cli::lsp {

/// JSON-RPC 2.0 and LSP error codes.
namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int server_not_initialized = -32002;
} // namespace error_code

/// The methods the server answers or heeds, each named once (method_of reads the name).
/// Every other method is `other`: a request for one is answered method_not_found, a
/// notification of one (initialized, $/cancelRequest, workspace/...) needs nothing.
enum class Method : std::uint8_t {
    initialize,
    shutdown,
    exit,
    hover,       ///< textDocument/hover
    completion,  ///< textDocument/completion
    code_action, ///< textDocument/codeAction
    did_open,    ///< textDocument/didOpen
    did_change,  ///< textDocument/didChange
    did_close,   ///< textDocument/didClose
    other,
};

/// The method a message's "method" string names.
Method method_of(std::string_view name) noexcept;

struct ReaderLimits {
    /// The most bytes of one string kept; the rest of a longer string is dropped.
    std::size_t max_string_bytes = std::size_t{1} << 20;
    /// The most memory one message's value may take, about (strings, plus 32 bytes a
    /// value); a message that needs more is refused.
    std::size_t max_message_bytes = std::size_t{3} << 20;
    /// The deepest nesting of arrays and objects accepted.
    std::size_t max_depth = 64;
};

/// What reading found: a message (with a `note` when its framing was odd but it could be
/// read), a message that could not be read (answer `code` and `error` with id null;
/// reading goes on with the next message), or the end of input (with an `error` when
/// reading gave up: the input is not the protocol).
struct ReadResult {
    enum class Kind { message, error, end };
    Kind kind = Kind::end;
    boost::json::value message;
    int code = 0;
    std::string error;
    std::string note;
};

/// Reads messages from a file descriptor (standard input), one at a time.
class MessageReader {
public:
    MessageReader(int fd, ReaderLimits limits);
    ~MessageReader();
    MessageReader(const MessageReader&) = delete;
    MessageReader& operator=(const MessageReader&) = delete;

    /// The next message, waiting for it. After Kind::end every call returns Kind::end.
    ReadResult next();
    /// Whether more input is here already (read, or waiting in the descriptor), or comes
    /// within `wait`, so that next() would not wait: a server drains a burst of edits
    /// before checking again.
    bool input_pending(std::chrono::milliseconds wait = std::chrono::milliseconds(0));

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

/// Writes messages to a file descriptor (standard output), each with its header.
class MessageWriter {
public:
    explicit MessageWriter(int fd) : fd_(fd) {}

    /// Writes `message` whole; false when the descriptor refuses (the client is gone).
    bool send(const boost::json::value& message);

private:
    int fd_;
};

/// A response with `result` to the request with `id`.
boost::json::value response(const boost::json::value& id, boost::json::value result);
/// An error response to the request with `id` (null when it is not known).
boost::json::value error_response(const boost::json::value& id, int code, std::string_view message);
/// A notification from the server.
boost::json::value notification(std::string_view method, boost::json::value params);

} // namespace jobspec::cli::lsp
