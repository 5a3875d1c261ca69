// The params of the methods the server answers or heeds, read from a message's JSON
// into types once, before the method runs. Strings are views into the message: a
// method's params live as long as the message they were read from.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "positions.hpp"

namespace jobspec::cli::lsp {

/// Params that are not what the method takes (answered -32602), saying which member.
struct InvalidParams : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A range of a text: [start, end), as the client wrote it (start may come after end).
struct Range {
    Position start;
    Position end;
};

/// initialize: whether the client can count characters in bytes
/// (capabilities.general.positionEncodings holds "utf-8"). Never invalid: what is not
/// understood is not offered.
struct InitializeParams {
    bool offers_utf8 = false;
};

/// textDocument/didOpen: the document's uri and text, and its languageId and version
/// when given as a string and an integer.
struct DidOpenParams {
    std::string_view uri;
    std::string_view language;
    std::optional<std::int64_t> version;
    std::string_view text;
};

/// One of didChange's contentChanges: the new text of `range`, or of the whole document
/// without one.
struct ContentChange {
    std::optional<Range> range;
    std::string_view text;
};

/// textDocument/didChange.
struct DidChangeParams {
    std::string_view uri;
    std::optional<std::int64_t> version;
    std::vector<ContentChange> changes;
};

/// textDocument/hover and textDocument/completion: a document and a position in it.
struct PositionParams {
    std::string_view uri;
    Position position;
};

/// A diagnostic a codeAction request names: its code and range, and the client's own
/// JSON of it (sent back in the action).
struct NamedDiagnostic {
    std::string_view code;
    Range range;
    const boost::json::value* json = nullptr;
};

/// textDocument/codeAction. With `named` (the client sent a non-empty
/// context.diagnostics), the actions are for those diagnostics of the document that it
/// names (entries without a string code or a range are passed over); otherwise for
/// those in `range`. `quickfix_wanted` is false when context.only lists kinds and
/// "quickfix" is not among them.
struct CodeActionParams {
    std::string_view uri;
    bool quickfix_wanted = true;
    bool named = false;
    std::vector<NamedDiagnostic> diagnostics;
    Range range;
};

/// The params of each method. Each throws InvalidParams naming the first member that
/// is missing or of the wrong type.
InitializeParams read_initialize(const boost::json::object& params);
DidOpenParams read_did_open(const boost::json::object& params);
DidChangeParams read_did_change(const boost::json::object& params);
/// textDocument/didClose's: the uri of params.textDocument.
std::string_view read_document_uri(const boost::json::object& params);
PositionParams read_position_params(const boost::json::object& params);
CodeActionParams read_code_action(const boost::json::object& params);

} // namespace jobspec::cli::lsp
