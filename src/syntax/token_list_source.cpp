#include "syntax/token_list_source.hpp"

#include <CommonToken.h>

namespace jobspec::syntax {

void TokenListSource::push(std::size_t type, std::string_view text, std::size_t begin,
                           std::size_t end, std::size_t line, std::size_t line_start) {
    auto token = std::make_unique<antlr4::CommonToken>(
        std::make_pair(this, nullptr), type, antlr4::Token::DEFAULT_CHANNEL, begin, end - 1);
    token->setText(std::string(text.substr(begin, end - begin)));
    token->setLine(line);
    token->setCharPositionInLine(begin - line_start);
    token->setTokenIndex(tokens_.size());
    tokens_.push_back(std::move(token));
}

void TokenListSource::finish(std::string_view text, std::size_t line, std::size_t line_start) {
    auto eof = std::make_unique<antlr4::CommonToken>(
        std::make_pair(this, nullptr), antlr4::Token::EOF, antlr4::Token::DEFAULT_CHANNEL,
        text.size(), text.size() - 1);
    eof->setText("<EOF>");
    eof->setLine(line);
    eof->setCharPositionInLine(text.size() - line_start);
    eof->setTokenIndex(tokens_.size());
    tokens_.push_back(std::move(eof));
}

std::unique_ptr<antlr4::Token> TokenListSource::nextToken() {
    if (next_ + 1 < tokens_.size())
        return std::move(tokens_[next_++]);
    // EOF again and again, as ANTLR expects at the end.
    return std::make_unique<antlr4::CommonToken>(tokens_.back().get());
}

size_t TokenListSource::getLine() const {
    return next_ < tokens_.size() && tokens_[next_] ? tokens_[next_]->getLine() : 1;
}

size_t TokenListSource::getCharPositionInLine() {
    return next_ < tokens_.size() && tokens_[next_] ? tokens_[next_]->getCharPositionInLine() : 0;
}

} // namespace jobspec::syntax
