#include "syntax/token_list_source.hpp"

#include <fmt/format.h>

namespace jobspec::syntax {

std::string SpanToken::toString() const {
    return fmt::format("[@{},{}:{}='{}',<{}>,{}:{}]", index_, start_, stop_, getText(), type_,
                       line_, column_);
}

void TokenListSource::push(std::size_t type, std::string_view text, std::size_t begin,
                           std::size_t end, std::size_t line, std::size_t line_start) {
    if (tokens_.empty()) // at most a token per byte and EOF; a short input's all at once
        tokens_.reserve(std::min<std::size_t>(text.size() + 1, 64));
    tokens_.emplace_back(this, type, text.substr(begin, end - begin), begin, end - 1, line,
                         begin - line_start, tokens_.size());
}

void TokenListSource::finish(std::string_view text, std::size_t line, std::size_t line_start) {
    tokens_.emplace_back(this, antlr4::Token::EOF, "<EOF>", text.size(), text.size() - 1, line,
                         text.size() - line_start, tokens_.size());
}

std::unique_ptr<antlr4::Token> TokenListSource::nextToken() {
    // EOF again and again, as ANTLR expects at the end.
    const SpanToken& token = tokens_[next_ + 1 < tokens_.size() ? next_++ : tokens_.size() - 1];
    return std::make_unique<SpanToken>(token);
}

size_t TokenListSource::getLine() const {
    return next_ < tokens_.size() ? tokens_[next_].getLine() : 1;
}

size_t TokenListSource::getCharPositionInLine() {
    return next_ < tokens_.size() ? tokens_[next_].getCharPositionInLine() : 0;
}

} // namespace jobspec::syntax
