// Where tokens and rule contexts are in the source text, for the AST builders.
#pragma once

#include <antlr4-runtime.h>

#include <jobspec/diagnostic.hpp>

namespace jobspec::syntax {

/// The source range of a token (empty at the end of input for EOF).
SourceRange token_range(const antlr4::Token& token) noexcept;

/// Whether a label holds a token that was written, not one error recovery conjured
/// ("<missing X>") or none at all.
bool present(const antlr4::Token* token) noexcept;

/// The source range of a rule context, from its first to its last written token (just
/// its first one when recovery left it without a written last token).
SourceRange rule_range(antlr4::ParserRuleContext& ctx) noexcept;

} // namespace jobspec::syntax
