// The constraint query token source.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// Lexes an RFC 35 query (the token rules are in grammar/ConstraintQuery.g4), reporting
/// query.* diagnostics (unclosed quotes, '-' before a parenthesis, control characters)
/// and limit.depth for parentheses and runs of 'not' deeper than the limit.
class QueryTokenSource final : public TokenListSource {
public:
    QueryTokenSource(std::string_view text, const Limits& limits, Diagnostics& diagnostics);

private:
    void lex(std::string_view text, const Limits& limits, Diagnostics& diagnostics);
};

} // namespace jobspec::syntax
