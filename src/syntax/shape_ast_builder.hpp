// Parse tree -> shape AST: one method per grammar rule.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "Shape.h"
#include "syntax/shape_ast.hpp"

namespace jobspec::syntax {

/// Converts a parse into the AST, copying text and ranges out so that no token or
/// context outlives the parse. Reads only the grammar's labels, which the parser fills
/// with or without a parse tree. Reports shape.empty-list and shape.bad-escape.
/// After syntax errors (`recovered`), error recovery may have left labels empty or
/// conjured missing tokens: the AST then holds only what was written and parsed (a
/// vertex without its type, an entry without its key or value, a count that is not
/// there are left out), and an empty list is not reported, since the error may be why.
class ShapeAstBuilder {
public:
    ShapeAstBuilder(Diagnostics& diagnostics, bool recovered)
        : diags_(diagnostics), recovered_(recovered) {}

    ShapeAst shape(grammar::Shape::ShapeContext& ctx);

private:
    using G = grammar::Shape;

    std::vector<ShapeVertex> list(G::ListContext* ctx);
    std::optional<ShapeVertex> vertex(G::VertexContext& ctx);
    ShapeDict dict(G::DictContext& ctx);
    std::optional<ShapeItem> item(G::ItemContext& ctx);
    std::optional<ShapeValue> value(G::ValueContext* ctx);
    ShapeValue array(G::ArrayContext& ctx);
    /// The text of a NAME, or the unescaped contents of a STRING.
    std::string text(antlr4::Token& token);

    Diagnostics& diags_;
    bool recovered_;
};

} // namespace jobspec::syntax
