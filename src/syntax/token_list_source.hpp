// A token source that hands the ANTLR parser tokens lexed up front by our own lexers.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CommonTokenFactory.h>
#include <Token.h>
#include <TokenSource.h>

namespace jobspec::syntax {

/// Holds a whole input's tokens (filled by a hand-written lexer) and gives them to the
/// parser one by one, then EOF forever. Start/stop indexes are byte offsets into the
/// text; lines count from 1, columns (bytes) from 0.
class TokenListSource : public antlr4::TokenSource {
public:
    explicit TokenListSource(std::string name) : name_(std::move(name)) {}

    /// Whether the text must not be parsed (a lexer error the parser cannot recover from).
    bool fatal() const noexcept { return fatal_; }
    void set_fatal() noexcept { fatal_ = true; }
    /// The tokens not yet pulled by the parser, ending with EOF once finished.
    const std::vector<std::unique_ptr<antlr4::Token>>& tokens() const noexcept { return tokens_; }

    /// Appends a token of `type` covering text[begin, end).
    void push(std::size_t type, std::string_view text, std::size_t begin, std::size_t end,
              std::size_t line, std::size_t line_start);
    /// Appends the EOF token at the end of `text`; call once, last.
    void finish(std::string_view text, std::size_t line, std::size_t line_start);

    std::unique_ptr<antlr4::Token> nextToken() override;
    size_t getLine() const override;
    size_t getCharPositionInLine() override;
    antlr4::CharStream* getInputStream() override { return nullptr; }
    std::string getSourceName() override { return name_; }
    antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
        return antlr4::CommonTokenFactory::DEFAULT.get();
    }

private:
    std::string name_;
    std::vector<std::unique_ptr<antlr4::Token>> tokens_;
    std::size_t next_ = 0;
    bool fatal_ = false;
};

} // namespace jobspec::syntax
