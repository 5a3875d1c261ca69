// A way to watch a real parse from outside: what the grammar debugger uses.
#pragma once

namespace antlr4 {
class Parser;
class ParserRuleContext;
} // namespace antlr4

namespace jobspec::syntax {

class TokenListSource;

/// Watches one parse. The parsers call it at fixed points, so what a watcher sees is
/// exactly what jobspec does with the text.
class ParseObserver {
public:
    virtual ~ParseObserver() = default;
    /// After lexing, before the parser runs; also when lexing failed and no parse follows.
    virtual void lexed(const TokenListSource& source) = 0;
    /// The parser, set up with our error strategy, before its entry rule runs.
    virtual void parsing(antlr4::Parser& parser) = 0;
    /// After the entry rule: its tree (recovered, when there were syntax errors), or
    /// nullptr when the parse was cancelled after too many errors.
    virtual void parsed(antlr4::Parser& parser, antlr4::ParserRuleContext* tree) = 0;
};

} // namespace jobspec::syntax
