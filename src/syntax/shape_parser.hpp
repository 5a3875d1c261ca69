// Parsing shape strings into the shape AST.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/parse_observer.hpp"

#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

/// Parses a shape: checks the input size, lexes, runs the generated parser with our error
/// strategy and converts the parse tree to the AST. Returns nothing when any shape.* or
/// limit.* error was added to `diagnostics`; every syntax error the parser can recover
/// from is reported, up to the diagnostics cap.
/// An `observer` watches the lexing and the parse (the grammar debugger's way in).
std::optional<ShapeAst> parse_shape(std::string_view text, const Limits& limits,
                                    Diagnostics& diagnostics, ParseObserver* observer = nullptr);

/// How a Shape token type reads in messages: "'['", "a name", "end of input".
std::string describe_shape_token(std::size_t type);

} // namespace jobspec::syntax
