// The one place that wires the shape token source, the generated parser and our error
// strategy together.
#include "syntax/shape_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "Shape.h"
#include "support/input_limit.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/run_parser.hpp"
#include "syntax/shape_ast_builder.hpp"
#include "syntax/shape_lexer.hpp"

namespace jobspec::syntax {

std::string describe_shape_token(std::size_t type) {
    using G = grammar::Shape;
    switch (type) {
    case G::LBRACK:
        return "'['";
    case G::RBRACK:
        return "']'";
    case G::LBRACE:
        return "'{'";
    case G::RBRACE:
        return "'}'";
    case G::SEMI:
        return "';'";
    case G::COMMA:
        return "','";
    case G::SLASH:
        return "'/'";
    case G::EQUALS:
        return "'='";
    case G::COLON:
        return "':'";
    case G::PLUS:
        return "'+'";
    case G::MINUS:
        return "'-'";
    case G::NAME:
        return "a name";
    case G::STRING:
        return "a quoted string";
    case G::COUNT:
        return "a count";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<ParsedShape> parse_shape(std::string_view text, const Limits& limits,
                                       Diagnostics& diagnostics, ParseObserver* observer) {
    if (!support::within_input_limit(text, limits, "shape", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    ShapeTokenSource source(text, limits, diagnostics);
    return run_parser(source, diagnostics, errors_before,
                      std::make_shared<ErrorStrategy>(diagnostics, Code::shape_syntax,
                                                      describe_shape_token, limits.max_diagnostics),
                      observer, ParseTree::labels_only, &grammar::Shape::shape,
                      [&](grammar::Shape::ShapeContext& tree) {
                          const auto failed = [&] {
                              return diagnostics.error_count() > errors_before;
                          };
                          ShapeAst ast = ShapeAstBuilder(diagnostics, failed()).shape(tree);
                          return ParsedShape{std::move(ast), failed()};
                      },
                      AfterErrors::build);
}

} // namespace jobspec::syntax
