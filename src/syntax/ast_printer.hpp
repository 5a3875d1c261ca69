// A printer for our ASTs: the oracle of the golden tests and the grammar debugger's view.
#pragma once

#include <string>

#include "syntax/grammar_debug.hpp"

namespace jobspec::syntax {

/// Our AST, one node per line, indented two spaces a level; "" for no AST. With
/// `ranges`, lines end with their node's byte range "@[begin,end)".
std::string ast_text(const DebugAst& ast, bool ranges);

} // namespace jobspec::syntax
