#include "syntax/token_list_stream.hpp"

#include <Exceptions.h>
#include <RuleContext.h>
#include <misc/Interval.h>

namespace jobspec::syntax {

antlr4::Token* TokenListStream::LT(ssize_t k) {
    const auto& tokens = source_->tokens();
    if (k == 0 || tokens.empty())
        return nullptr;
    if (k < 0) {
        const auto back = static_cast<std::size_t>(-k);
        return back > p_ ? nullptr : get(p_ - back);
    }
    return get(std::min(p_ + static_cast<std::size_t>(k) - 1, tokens.size() - 1));
}

antlr4::Token* TokenListStream::get(std::size_t index) const {
    const auto& tokens = source_->tokens();
    if (index >= tokens.size())
        throw antlr4::IndexOutOfBoundsException("token index " + std::to_string(index) +
                                                " out of range 0.." +
                                                std::to_string(tokens.size() - 1));
    // The parser takes tokens as mutable pointers and never writes through them.
    return const_cast<SpanToken*>(&tokens[index]);
}

std::size_t TokenListStream::LA(ssize_t i) {
    const antlr4::Token* token = LT(i);
    return token == nullptr ? antlr4::Token::INVALID_TYPE : token->getType();
}

void TokenListStream::consume() {
    if (LA(1) == antlr4::Token::EOF)
        throw antlr4::IllegalStateException("cannot consume EOF");
    ++p_;
}

void TokenListStream::seek(std::size_t index) {
    const std::size_t size = source_->tokens().size();
    p_ = size == 0 ? 0 : std::min(index, size - 1);
}

std::string TokenListStream::getText(const antlr4::misc::Interval& interval) {
    const auto& tokens = source_->tokens();
    if (interval.a < 0 || interval.b < 0 || tokens.empty())
        return {};
    const auto last = std::min(static_cast<std::size_t>(interval.b), tokens.size() - 1);
    std::string text;
    for (auto i = static_cast<std::size_t>(interval.a); i <= last; ++i) {
        if (tokens[i].getType() == antlr4::Token::EOF)
            break;
        text += tokens[i].getText();
    }
    return text;
}

std::string TokenListStream::getText() {
    return getText(antlr4::misc::Interval(std::size_t{0}, size()));
}

std::string TokenListStream::getText(antlr4::RuleContext* ctx) {
    return getText(ctx->getSourceInterval());
}

std::string TokenListStream::getText(antlr4::Token* start, antlr4::Token* stop) {
    if (start == nullptr || stop == nullptr)
        return {};
    return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

} // namespace jobspec::syntax
