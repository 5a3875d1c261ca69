#include "syntax/token_ranges.hpp"

namespace jobspec::syntax {

SourceRange token_range(const antlr4::Token& token) noexcept {
    const auto begin = static_cast<std::uint32_t>(token.getStartIndex());
    if (token.getType() == antlr4::Token::EOF)
        return {begin, begin};
    return {begin, static_cast<std::uint32_t>(token.getStopIndex() + 1)};
}

bool present(const antlr4::Token* token) noexcept {
    return token != nullptr && token->getTokenIndex() != INVALID_INDEX;
}

SourceRange rule_range(antlr4::ParserRuleContext& ctx) noexcept {
    const SourceRange start = token_range(*ctx.getStart());
    const antlr4::Token* stop = ctx.getStop();
    if (!present(stop) || stop->getStopIndex() + 1 < start.begin)
        return start;
    return {start.begin, token_range(*stop).end};
}

} // namespace jobspec::syntax
