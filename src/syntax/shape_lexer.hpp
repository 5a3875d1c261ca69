// The shape token source: lexes a whole shape string into ANTLR tokens for the Shape parser.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// Lexes a shape by context (the token rules are in grammar/Shape.g4) when constructed,
/// reporting shape.* and limit.depth diagnostics; the parser then pulls the tokens.
/// Token types are the generated Shape parser's. The input size limit is the caller's.
class ShapeTokenSource final : public TokenListSource {
public:
    ShapeTokenSource(std::string_view text, const Limits& limits, Diagnostics& diagnostics);
};

} // namespace jobspec::syntax
