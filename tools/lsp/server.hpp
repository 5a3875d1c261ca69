// `jobspec lsp`'s server: the documents an editor has open, checked as the CLI checks
// them (check_document), with the protocol's methods dispatched over them.
#pragma once

#include <string>

#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

#include "protocol.hpp"

namespace jobspec::cli::lsp {

struct ServerOptions {
    /// The limits each document is checked with; a document longer than
    /// limits.max_input_bytes is kept as its first max_input_bytes + 1 bytes and gets
    /// one limit.input-size diagnostic.
    Limits limits;
    Dialect dialect = Dialect::rfc;
};

/// The reader's bounds for a server with these options: strings up to the input limit
/// + 1 bytes, messages up to twice the limit + 1 MiB.
ReaderLimits reader_limits(const ServerOptions& options);

/// How a session ended: the process's exit status (0 when `shutdown` came before `exit`
/// or the end of input, else 1: LSP's rule), and why reading gave up, if it did.
struct SessionEnd {
    int status = 1;
    std::string error;
};

/// Serves one client until it sends `exit` or its input ends. What the client should
/// know and cannot be told in an answer (a notification it sent was wrong) is sent to it
/// as window/logMessage; nothing is written to standard error.
SessionEnd serve(MessageReader& in, MessageWriter& out, const ServerOptions& options);

} // namespace jobspec::cli::lsp
