// What both readings of an RFC 35 query (RFC 35's, and flux-core's grouping) agree on:
// how its keywords and operator symbols are found in the text.
#pragma once

#include <cstddef>
#include <string_view>

#include "support/utf8.hpp"

namespace jobspec::syntax {

/// Whether `word` (and, or, not) is at `pos` as a keyword: followed by no word character
/// (Python's `word\b`, which both grammars use).
inline bool keyword_at(std::string_view text, std::size_t pos, std::string_view word) noexcept {
    return text.substr(pos, word.size()) == word &&
           support::word_char_length(text, pos + word.size()) == 0;
}

/// The length of the operator symbol at `pos` ('&' or '&&' for and, '|' or '||' for or),
/// 0 when there is none.
inline std::size_t symbol_at(std::string_view text, std::size_t pos) noexcept {
    const char c = pos < text.size() ? text[pos] : '\0';
    if (c != '&' && c != '|')
        return 0;
    return pos + 1 < text.size() && text[pos + 1] == c ? 2 : 1;
}

} // namespace jobspec::syntax
