// The grammar debugger's views for the playground: the tokens and the parse tree (as DOT)
// of a shape, a dependency URI or a constraint query, exactly as `jobspec-grammar --tokens`
// and `--dot` show them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::serve {

enum class Grammar : std::uint8_t { shape, dependency, constraint };

/// One token as the parser sees it.
struct Token {
    std::size_t index = 0;
    /// The grammar's name for its type ("NAME", "EOF").
    std::string type;
    std::string text;
    /// Line from 1 and column from 1, counted in bytes as jobspec-grammar --tokens prints.
    std::size_t line = 1;
    std::size_t column = 1;
    /// Its bytes in the text.
    SourceRange range;
};

struct GrammarViews {
    /// Every token the lexer made, up to its first fatal error.
    std::vector<Token> tokens;
    /// The parse tree as Graphviz DOT; nothing when the lexer stopped before the parser ran.
    std::optional<std::string> tree_dot;
};

/// Parses `text` with one grammar through the parsers jobspec uses. Bad input gives
/// fewer tokens or no tree, never an exception.
GrammarViews grammar_views(Grammar grammar, std::string_view text, const Limits& limits);

} // namespace jobspec::serve
