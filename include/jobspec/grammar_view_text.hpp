// The grammar debugger's views as text: tokens, parse trees (also as Graphviz) and
// diagnostics, one per line.
#pragma once

#include <string>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/grammar_view_model.hpp>

namespace jobspec {

/// One token per line under a header: index, type name, text as a JSON string,
/// line:column.
JOBSPEC_API std::string tokens_text(const std::vector<GrammarToken>& tokens);

/// The parse tree, one node per line, indented two spaces a level: rules by name, tokens
/// as TYPE "text"; tokens from error recovery end with "(error)". With `ranges`, each
/// line ends with the node's byte range, "@[begin,end)".
JOBSPEC_API std::string tree_text(const ParseTreeNode& tree, bool ranges);

/// The parse tree as a Graphviz digraph: rules as ellipses, tokens as boxes with their
/// type and text, recovery tokens red, children left to right in order.
JOBSPEC_API std::string tree_dot(const ParseTreeNode& tree);

/// Diagnostics one per line: "severity[code] @[begin,end) POINTER: message"; "(none)" if
/// there are none. Control characters are shown escaped.
JOBSPEC_API std::string diagnostics_text(const Diagnostics& diagnostics);

} // namespace jobspec
