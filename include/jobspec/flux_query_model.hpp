// What flux-core's ConstraintParser makes of a query, as a drop-in sees it: its terms,
// and the error that stops it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

/// A term as flux's lexer makes it: "op:operand" (a term ending in ':' joined with the
/// next one, quotes removed), at `position`, counted in code points as a Python str is.
struct FluxQueryTerm {
    std::string text;
    std::size_t position = 0;
};

/// Why flux's parser stops, with what its message names: the character, quote, pending
/// term or token (`text`) and its code-point `position`. `limit` is jobspec's own (input
/// size or nesting, in `diagnostics`), which flux has no word for.
struct FluxQueryError {
    enum class Kind : std::uint8_t {
        illegal_character,      ///< a character no token can start with
        unclosed_quote,         ///< `text` is the quote; `position` is just after it
        missing_argument,       ///< `text` is a term ending in ':' with nothing after it
        invalid_token,          ///< `text` is the token the grammar does not allow there
        end_of_input,           ///< the query ended where the grammar needs more
        unclosed_parenthesis,   ///< `position` is the last '(' read
        mismatched_parentheses, ///< a ')' more than the '(' before it
        limit,
    };
    Kind kind = Kind::invalid_token;
    std::string text;
    std::size_t position = 0;
};

} // namespace jobspec
