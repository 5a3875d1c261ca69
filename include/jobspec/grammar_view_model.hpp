// What reading a text with one of jobspec's ANTLR grammars shows: tokens, parse tree,
// trace and reports, as values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec {

/// The languages jobspec parses with an ANTLR grammar (directives: RFC 36 batch scripts).
enum class Grammar : std::uint8_t { shape, dependency, constraint, directives };

/// One token as the parser sees it.
struct GrammarToken {
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

struct InspectOptions {
    /// Record rule entries and exits, tokens consumed, and each decision's prediction.
    bool trace = false;
    /// ANTLR's diagnostic mode: exact ambiguity detection, reporting ambiguities and
    /// full-context predictions.
    bool ambiguities = false;
    /// Predict with SLL only (the fast path), to see whether it is enough.
    bool sll = false;
    Limits limits;
};

/// Most trace lines kept; a trace longer than this ends with a line saying so.
inline constexpr std::size_t max_trace_lines = 100000;

/// What reading one text with one grammar shows.
struct GrammarInspection {
    /// Every token the lexer made (up to its first fatal error).
    std::vector<GrammarToken> tokens;
    /// The parse tree, whenever the parser ran (recovered after syntax errors); nothing
    /// when lexing failed or the parse was cancelled.
    std::optional<ParseTreeNode> tree;
    /// jobspec's own AST, one node per line indented by depth (see ast_text); empty when
    /// the parse had errors. `ast_ranges` is the same with each node's byte range.
    std::string ast;
    std::string ast_ranges;
    /// Shapes only: each pass's diagnostics and the ResourceGraph IR after lowering,
    /// as text ("parse: ...", "lower: ...", the IR, "canonical: ...").
    std::string passes;
    /// Rule entries and exits, tokens, predictions, then each decision's statistics.
    std::vector<std::string> trace;
    /// ANTLR's reports: ambiguities, full-context attempts, context sensitivities.
    std::vector<std::string> reports;
    /// What the parser alone reported (with `sll`, the SLL parse's).
    Diagnostics parse_diagnostics;
    /// What jobspec itself reports for the text: compile_shape, parse_dependency or
    /// parse_constraint_query, the same code path, the same codes.
    Diagnostics diagnostics;
};

/// The grammar's name ("shape", "dependency", "constraint").
JOBSPEC_API std::string_view grammar_name(Grammar grammar) noexcept;

} // namespace jobspec
