// The parser's stream over a TokenListSource: every token is lexed before parsing starts.
#pragma once

#include <string>

#include <TokenStream.h>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// Reads a finished TokenListSource's tokens by index: lookahead and lookbehind are array
/// reads, with none of CommonTokenStream's fetching, channel filtering and token copies
/// (our lexers put every token on the default channel). Past the end is EOF; before the
/// start is null. The source must outlive the stream's use of it.
class TokenListStream final : public antlr4::TokenStream {
public:
    explicit TokenListStream(TokenListSource& source) { reset(source); }

    /// Reads `source`, which must be finished, from its first token.
    void reset(TokenListSource& source) noexcept {
        source_ = &source;
        tokens_ = source.tokens().data();
        size_ = source.tokens().size();
        p_ = 0;
    }

    antlr4::Token* LT(ssize_t k) override;
    antlr4::Token* get(std::size_t index) const override;
    antlr4::TokenSource* getTokenSource() const override { return source_; }
    std::string getText(const antlr4::misc::Interval& interval) override;
    std::string getText() override;
    std::string getText(antlr4::RuleContext* ctx) override;
    std::string getText(antlr4::Token* start, antlr4::Token* stop) override;

    void consume() override;
    std::size_t LA(ssize_t i) override;
    ssize_t mark() override { return 0; }
    void release(ssize_t /*marker*/) override {}
    std::size_t index() override { return p_; }
    void seek(std::size_t index) override;
    std::size_t size() override { return size_; }
    std::string getSourceName() const override { return source_->getSourceName(); }

private:
    /// The token k ahead (1 is the next), clamped to EOF; null for none.
    const SpanToken* ahead(ssize_t k) const noexcept;

    TokenListSource* source_ = nullptr;
    const SpanToken* tokens_ = nullptr;
    std::size_t size_ = 0;
    std::size_t p_ = 0;
};

} // namespace jobspec::syntax
