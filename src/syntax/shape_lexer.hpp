// The shape token source: lexes a whole shape string into ANTLR tokens for the Shape parser.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CommonTokenFactory.h>
#include <Token.h>
#include <TokenSource.h>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::syntax {

/// Lexes a shape by context (the token rules are in grammar/Shape.g4) when constructed,
/// reporting shape.* and limit.depth diagnostics; the parser then pulls the tokens.
/// Token types are the generated Shape parser's; start/stop indexes are byte offsets.
/// The input size limit is the caller's to check.
class ShapeTokenSource final : public antlr4::TokenSource {
public:
    ShapeTokenSource(std::string_view text, const Limits& limits, Diagnostics& diagnostics);

    /// Whether the text must not be parsed: unbalanced brackets, an unclosed quote or
    /// the depth limit (the reason is among the diagnostics).
    bool fatal() const noexcept { return fatal_; }
    /// The tokens not yet pulled, ending with EOF.
    const std::vector<std::unique_ptr<antlr4::Token>>& tokens() const noexcept { return tokens_; }

    std::unique_ptr<antlr4::Token> nextToken() override;
    size_t getLine() const override;
    size_t getCharPositionInLine() override;
    antlr4::CharStream* getInputStream() override { return nullptr; }
    std::string getSourceName() override { return "shape"; }
    antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
        return antlr4::CommonTokenFactory::DEFAULT.get();
    }

private:
    std::vector<std::unique_ptr<antlr4::Token>> tokens_;
    std::size_t next_ = 0;
    bool fatal_ = false;

    friend class ShapeLexer;
};

} // namespace jobspec::syntax
