// Parsing shape strings into the shape AST.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/parse_observer.hpp"

#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

/// A shape's AST, and whether errors were reported on the way (syntax errors, or the
/// AST builder's): then the AST holds only the parts that parsed (see ShapeAstBuilder),
/// for checks that cannot be misled by what is missing.
struct ParsedShape {
    ShapeAst ast;
    bool recovered = false;
};

/// Parses a shape: checks the input size, lexes, runs the generated parser with our error
/// strategy and converts the parse tree to the AST. Every syntax error the parser can
/// recover from is reported, up to the diagnostics cap, and the AST of what parsed is
/// returned all the same. Returns nothing only when the input is too long or deep, the
/// lexer stopped, or the parse was cancelled after too many errors.
/// An `observer` watches the lexing and the parse (the grammar debugger's way in).
std::optional<ParsedShape> parse_shape(std::string_view text, const Limits& limits,
                                       Diagnostics& diagnostics,
                                       ParseObserver* observer = nullptr);

/// How a Shape token type reads in messages: "'['", "a name", "end of input".
std::string describe_shape_token(std::size_t type);

} // namespace jobspec::syntax
