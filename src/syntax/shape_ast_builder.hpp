// Parse tree -> shape AST: one method per grammar rule.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "Shape.h"
#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

/// Converts a parse without syntax errors into the AST, copying text and ranges out so
/// that no token or context outlives the parse. Reads only the grammar's labels, which
/// the parser fills with or without a parse tree. Reports shape.empty-list and
/// shape.bad-escape; the AST is complete either way.
class ShapeAstBuilder {
public:
    explicit ShapeAstBuilder(Diagnostics& diagnostics) : diags_(diagnostics) {}

    ShapeAst shape(grammar::Shape::ShapeContext& ctx);

private:
    using G = grammar::Shape;

    std::vector<ShapeVertex> list(G::ListContext& ctx);
    ShapeVertex vertex(G::VertexContext& ctx);
    ShapeDict dict(G::DictContext& ctx);
    ShapeItem item(G::ItemContext& ctx);
    ShapeValue value(G::ValueContext& ctx);
    ShapeValue array(G::ArrayContext& ctx);
    /// The text of a NAME, or the unescaped contents of a STRING.
    std::string text(antlr4::Token& token);

    Diagnostics& diags_;
};

} // namespace jobspec::syntax
