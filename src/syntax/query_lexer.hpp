// The constraint query lexer: one token source for RFC 35's grouping and flux-core's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/flux_query_model.hpp>
#include <jobspec/limits.hpp>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// How a query's text is grouped into ConstraintQuery's tokens.
enum class QueryGrouping : std::uint8_t {
    /// RFC 35's (the grammar's query rule): whitespace is Unicode's, `op:value` is WORD
    /// COLON WORD, a quoted operand is one QUOTED token, `-` negates a term only. Problems
    /// are query.* diagnostics (unclosed quotes, an empty quoted operand, '-' before a
    /// parenthesis, control characters, parentheses that do not match).
    rfc35,
    /// flux-core's ConstraintLexer's (the fluxQuery rule): whitespace is " \t\r\n\f\v"
    /// (other Unicode spaces are illegal characters), `-` wherever a token starts is
    /// MINUS, a quote starts an operand that runs to the same quote (and makes no token
    /// when empty), and a term ending in ':' joins the next term, whatever lies between:
    /// a WORD is the whole term. It stops at the first error (stop()), after the tokens
    /// before it.
    flux,
};

/// Lexes a query (the token rules are in grammar/ConstraintQuery.g4). Both groupings
/// read the keywords `and`/`or`/`not` before a non-word character, `&`/`&&` and `|`/`||`,
/// and report limit.depth for nesting deeper than the limit: parentheses and runs of
/// `not` (and, with flux's grouping, `-`), counted as each grammar recurses.
class QueryTokenSource final : public TokenListSource {
public:
    /// What flux knows of a token (flux grouping): its text (a WORD's whole term), its
    /// code-point position (a joined term's is its last part's), and its bytes.
    struct Lexed {
        std::string text;
        std::size_t position = 0;
        SourceRange range;
        std::size_t type = 0;
    };

    /// A lexer error (flux grouping), before token `at_token`.
    struct Stop {
        FluxQueryError error;
        SourceRange range;
        std::size_t at_token = 0;
    };

    QueryTokenSource(std::string_view text, const Limits& limits, Diagnostics& diagnostics,
                     QueryGrouping grouping = QueryGrouping::rfc35);

    /// With flux's grouping, every token as flux knows it, and where flux's lexer stops.
    const std::vector<Lexed>& lexed() const noexcept { return lexed_; }
    const std::optional<Stop>& stop() const noexcept { return stop_; }

private:
    class Lexer;

    std::vector<Lexed> lexed_;
    std::optional<Stop> stop_;
};

} // namespace jobspec::syntax
