// What `jobspec lsp` says about the text around a position, apart from diagnostics:
// hover text (an option's usage, an RFC 14 key, what a count means) and completions
// (options, system attributes, dependency schemes, resource types). What is at a
// position is found through the library's readers: a batch script's directives and where
// each of their words was read (parse_directives), a shape's tokens (inspect_grammar), a
// jobspec's keys and values with their ranges (document_keys); a count is read and said
// by Count. Positions and ranges here are byte offsets into the document; the server
// converts them. `limits` bound what the readers read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/document_check.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::cli::lsp {

/// A hover: Markdown, and the bytes [begin, end) it is about.
struct Hover {
    std::string markdown;
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// What the text at byte `offset` of a document of `kind` is, when there is something
/// to say. Examples: on "--nodes" in "#flux: --nodes=2", "`-N, --nodes=VALUE`..."; on
/// "2+" in the shape "node=2+", "`count=2+`: at least 2"; on "per_slot" in a jobspec,
/// what RFC 14 says of the key.
std::optional<Hover> hover_at(DocumentKind kind, std::string_view text, std::size_t offset,
                              const Limits& limits);

/// A completion: what is shown, what replaces the word typed so far, and its LSP kind.
struct Completion {
    std::string label;
    std::string insert;
    std::string detail;
    std::string documentation;
    int kind = 1;
};

/// The completions at byte `offset` and the bytes [begin, offset) they replace.
struct Completions {
    std::size_t begin = 0;
    std::vector<Completion> items;
};

/// What may be typed at byte `offset`: in a "#flux:" directive, the option names (after
/// "-"), the system attributes (after "--setattr=system." or "-S system."), the
/// dependency schemes (after "--dependency="); in a jobspec after "type:" and in a
/// shape where a vertex starts, the resource types. No items when nothing fits.
Completions complete_at(DocumentKind kind, std::string_view text, std::size_t offset,
                        const Limits& limits);

} // namespace jobspec::cli::lsp
