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

/// A token lexed up front: its text is a view of the input, which must outlive it.
/// Start/stop are byte offsets; lines count from 1, columns (bytes) from 0.
class SpanToken final : public antlr4::Token {
public:
    SpanToken(antlr4::TokenSource* source, std::size_t type, std::string_view text,
              std::size_t start, std::size_t stop, std::size_t line, std::size_t column,
              std::size_t index)
        : source_(source), text_(text), type_(type), start_(start), stop_(stop), line_(line),
          column_(column), index_(index) {}

    std::string getText() const override { return std::string(text_); }
    std::size_t getType() const override { return type_; }
    std::size_t getLine() const override { return line_; }
    std::size_t getCharPositionInLine() const override { return column_; }
    std::size_t getChannel() const override { return DEFAULT_CHANNEL; }
    std::size_t getTokenIndex() const override { return index_; }
    std::size_t getStartIndex() const override { return start_; }
    std::size_t getStopIndex() const override { return stop_; }
    antlr4::TokenSource* getTokenSource() const override { return source_; }
    antlr4::CharStream* getInputStream() const override { return nullptr; }
    std::string toString() const override;

    /// getType() without a virtual call, for the stream.
    std::size_t type() const noexcept { return type_; }

private:
    antlr4::TokenSource* source_;
    std::string_view text_;
    std::size_t type_, start_, stop_, line_, column_, index_;
};

/// Holds a whole input's tokens (filled by a hand-written lexer) and gives them to the
/// parser through a TokenListStream, or one by one as a TokenSource, then EOF forever.
class TokenListSource : public antlr4::TokenSource {
public:
    explicit TokenListSource(std::string name) : name_(std::move(name)) {}

    /// Whether the text must not be parsed (a lexer error the parser cannot recover from).
    bool fatal() const noexcept { return fatal_; }
    void set_fatal() noexcept { fatal_ = true; }
    /// The tokens, ending with EOF once finished.
    const std::vector<SpanToken>& tokens() const noexcept { return tokens_; }

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
    std::vector<SpanToken> tokens_;
    std::size_t next_ = 0;
    bool fatal_ = false;
};

} // namespace jobspec::syntax
