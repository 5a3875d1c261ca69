// The grammar debugger's views as text: tokens, parse trees, ASTs and the IR. The golden
// tests compare exactly these texts, so their format is part of what the tests pin down.
#pragma once

#include <string>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_graph.hpp>

#include "syntax/grammar_debug.hpp"

namespace jobspec::emit {

/// One token per line under a header: index, type name, text as a JSON string, line:column.
std::string tokens_text(const std::vector<syntax::TokenInfo>& tokens);

/// The parse tree, one node per line, indented two spaces a level: rules by name, tokens
/// as TYPE "text"; tokens from error recovery end with "(error)". With `ranges`, each
/// line ends with the node's byte range, "@[begin,end)".
std::string tree_text(const syntax::ParseTreeNode& tree, bool ranges);

/// The parse tree as a Graphviz digraph: rules as ellipses, tokens as boxes with their
/// type and text, recovery tokens red, children left to right in order.
std::string tree_dot(const syntax::ParseTreeNode& tree);

/// Our AST, one node per line, indented like tree_text; "" for no AST. With `ranges`,
/// lines end with their node's range.
std::string ast_text(const syntax::DebugAst& ast, bool ranges);

/// The ResourceGraph IR: a vertex per line as "type ×count", then its keys as
/// key=JSON, indented by containment.
std::string ir_text(const ResourceList& resources, bool ranges);

/// Diagnostics one per line: "severity[code] @[begin,end): message"; "(none)" if empty.
std::string diagnostics_text(const Diagnostics& diagnostics);

} // namespace jobspec::emit
