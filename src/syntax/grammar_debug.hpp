// Looking inside the parsers: tokens, parse trees, traces and ANTLR's own diagnostics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/grammar_view_model.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/submit_options.hpp>

#include "syntax/dependency_parser.hpp"
#include "syntax/query_parser.hpp"
#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

/// Our own AST of a parse, when there was one without errors.
using DebugAst =
    std::variant<std::monostate, ShapeAst, DependencyAst, QueryNode, std::vector<Directive>>;

/// What one parse shows.
struct DebugParse {
    /// Every token the lexer made (up to its first fatal error).
    std::vector<GrammarToken> tokens;
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
DebugParse debug_parse(Grammar grammar, std::string_view text, const InspectOptions& options = {});

} // namespace jobspec::syntax
