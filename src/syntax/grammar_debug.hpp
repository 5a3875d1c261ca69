// Looking inside the parsers: tokens, parse trees, traces and ANTLR's own diagnostics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/dependency_parser.hpp"
#include "syntax/query_parser.hpp"
#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

enum class Grammar : std::uint8_t { shape, dependency, constraint };

/// One token as the parser sees it.
struct TokenInfo {
    std::size_t index = 0;
    /// The grammar's name for its type ("NAME", "EOF").
    std::string type;
    std::string text;
    /// Line from 1, column (bytes) from 1, as diagnostics count them.
    std::size_t line = 1;
    std::size_t column = 1;
    SourceRange range;
};

/// A node of the ANTLR parse tree: a rule (its name and children) or a token (its type
/// and text). `error` marks tokens the parser skipped or conjured while recovering.
struct ParseTreeNode {
    bool rule = true;
    bool error = false;
    std::string name;
    std::string text;
    std::vector<ParseTreeNode> children;
    SourceRange range;
};

struct DebugOptions {
    /// Record rule entries and exits, tokens consumed, and each decision's prediction.
    bool trace = false;
    /// ANTLR's diagnostic mode: exact ambiguity detection, reporting ambiguities and
    /// full-context predictions.
    bool diagnostic_mode = false;
    /// Predict with SLL only (the fast path), to see whether it is enough.
    bool sll = false;
    Limits limits;
};

/// Most trace lines kept; a trace longer than this ends with a line saying so.
inline constexpr std::size_t max_trace_lines = 100000;

/// Our own AST of a parse, when there was one without errors.
using DebugAst = std::variant<std::monostate, ShapeAst, DependencyAst, QueryNode>;

/// What one parse shows.
struct DebugParse {
    /// Every token the lexer made (up to its first fatal error).
    std::vector<TokenInfo> tokens;
    /// The parse tree, whenever the parser ran (recovered after syntax errors); nothing
    /// when lexing failed or the parse was cancelled.
    std::optional<ParseTreeNode> tree;
    DebugAst ast;
    /// Rule entries and exits, tokens, predictions, then each decision's statistics.
    std::vector<std::string> trace;
    /// ANTLR's reports: ambiguities, full-context attempts, context sensitivities.
    std::vector<std::string> reports;
    /// The syntax layer's diagnostics (the parser's; lowering and checking add more).
    Diagnostics diagnostics;
};

/// Parses `text` with one grammar through the same code jobspec uses, and records what
/// happened. Bad input gives diagnostics, never an exception.
DebugParse debug_parse(Grammar grammar, std::string_view text, const DebugOptions& options = {});

} // namespace jobspec::syntax
