// flux-core's constraint query lexer, as a token source for ConstraintQuery's flux rules.
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

/// Lexes a query as flux's ConstraintLexer does: whitespace is " \t\r\n\f\v" (other
/// Unicode spaces are illegal characters), `-` wherever a token starts is MINUS,
/// `not`/`and`/`or` before a non-word character are keywords, `&`/`&&` and `|`/`||`
/// are AND and OR, a quote starts an operand that runs to the same quote (and makes no
/// token when empty), and a term ending in ':' joins the next term, whatever lies
/// between (a WORD is the whole term). Stops at the first error, after the tokens
/// before it (the EOF after them is not flux's). Nesting deeper than the limit, counted
/// as flux's grammar recurses (parentheses, runs of `not` and `-`), is a limit error.
class FluxQueryTokenSource final : public TokenListSource {
public:
    /// What flux knows of a token: its text (a WORD's whole term), its code-point
    /// position (a joined term's is its last part's), and its bytes in the query.
    struct Lexed {
        std::string text;
        std::size_t position = 0;
        SourceRange range;
        std::size_t type = 0;
    };

    /// A lexer error, before token `at_token`.
    struct Stop {
        FluxQueryError error;
        SourceRange range;
        std::size_t at_token = 0;
    };

    FluxQueryTokenSource(std::string_view text, const Limits& limits, Diagnostics& diagnostics);

    const std::vector<Lexed>& lexed() const noexcept { return lexed_; }
    const std::optional<Stop>& stop() const noexcept { return stop_; }

private:
    void lex(std::string_view text, const Limits& limits, Diagnostics& diagnostics);
    void add(std::size_t type, std::string_view text, std::size_t begin, std::size_t end,
             std::string flux_text, std::size_t position);

    std::vector<Lexed> lexed_;
    std::optional<Stop> stop_;
};

} // namespace jobspec::syntax
