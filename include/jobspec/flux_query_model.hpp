// A query as flux-core's ConstraintParser reads it: its terms, and its reduction steps or
// the error that stops it.
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

/// One step of flux's parse, in the order its parser reduces: a term (pushing
/// terms[term]), `not` of the last value, or `and`/`or` of the last two (the earlier one
/// first). Folding the steps over a stack gives the query's value.
struct FluxQueryStep {
    enum class Kind : std::uint8_t { term, not_, and_, or_ };
    Kind kind = Kind::term;
    std::uint32_t term = 0;
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

/// A query as flux reads it: its terms in source order, and either its steps or the
/// error that stops flux, after flux has read `terms_before_error` of the terms (each
/// of which the caller converts first, since a bad term is reported before a later error).
struct FluxQuery {
    std::vector<FluxQueryTerm> terms;
    std::vector<FluxQueryStep> steps;
    std::optional<FluxQueryError> error;
    std::size_t terms_before_error = 0;
    /// jobspec's located diagnostics for the error (query.* and limit.*), for callers that
    /// show where it is; empty when there is none.
    Diagnostics diagnostics;
};

} // namespace jobspec
