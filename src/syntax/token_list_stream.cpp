#include "syntax/token_list_stream.hpp"

#include <Exceptions.h>
#include <RuleContext.h>
#include <misc/Interval.h>

namespace jobspec::syntax {

const SpanToken* TokenListStream::ahead(ssize_t k) const noexcept {
    if (k == 0 || size_ == 0)
        return nullptr;
    if (k < 0) {
        const auto back = static_cast<std::size_t>(-k);
        return back > p_ ? nullptr : &tokens_[p_ - back];
    }
    return &tokens_[std::min(p_ + static_cast<std::size_t>(k) - 1, size_ - 1)];
}

antlr4::Token* TokenListStream::LT(ssize_t k) {
    // The parser takes tokens as mutable pointers and never writes through them.
    return const_cast<SpanToken*>(ahead(k));
}

std::size_t TokenListStream::LA(ssize_t i) {
    const SpanToken* token = ahead(i);
    return token == nullptr ? antlr4::Token::INVALID_TYPE : token->type();
}

antlr4::Token* TokenListStream::get(std::size_t index) const {
    if (index >= size_)
        throw antlr4::IndexOutOfBoundsException("token index " + std::to_string(index) +
                                                " out of range 0.." + std::to_string(size_ - 1));
    return const_cast<SpanToken*>(&tokens_[index]);
}

void TokenListStream::consume() {
    if (LA(1) == antlr4::Token::EOF)
        throw antlr4::IllegalStateException("cannot consume EOF");
    ++p_;
}

void TokenListStream::seek(std::size_t index) {
    p_ = size_ == 0 ? 0 : std::min(index, size_ - 1);
}

std::string TokenListStream::getText(const antlr4::misc::Interval& interval) {
    if (interval.a < 0 || interval.b < 0 || size_ == 0)
        return {};
    const auto last = std::min(static_cast<std::size_t>(interval.b), size_ - 1);
    std::string text;
    for (auto i = static_cast<std::size_t>(interval.a); i <= last; ++i) {
        if (tokens_[i].type() == antlr4::Token::EOF)
            break;
        text += tokens_[i].getText();
    }
    return text;
}

std::string TokenListStream::getText() {
    return getText(antlr4::misc::Interval(std::size_t{0}, size_));
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
