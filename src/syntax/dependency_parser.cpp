// The one place that wires the dependency token source, the generated parser and our
// error strategy together.
#include "syntax/dependency_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "Dependency.h"
#include "support/input_limit.hpp"
#include "syntax/dependency_ast_builder.hpp"
#include "syntax/dependency_lexer.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/run_parser.hpp"

namespace jobspec::syntax {

namespace {

using DependencyGrammar = grammar::Dependency;

} // namespace

std::string describe_dependency_token(std::size_t type) {
    switch (type) {
    case DependencyGrammar::NAME:
        return "a scheme";
    case DependencyGrammar::COLON:
        return "':'";
    case DependencyGrammar::TEXT:
        return "a name or value";
    case DependencyGrammar::QUESTION:
        return "'?'";
    case DependencyGrammar::EQUALS:
        return "'='";
    case DependencyGrammar::AMP:
        return "'&'";
    case DependencyGrammar::SEMI:
        return "';'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<DependencyAst> parse_dependency_uri(std::string_view text, const Limits& limits,
                                                  Diagnostics& diagnostics,
                                                  ParseObserver* observer) {
    if (!support::within_input_limit(text, limits, "dependency", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    DependencyTokenSource source(text, diagnostics);
    // A URI is short and flat: the first syntax error says it all, the rest would cascade.
    return run_parser(source, diagnostics, errors_before,
                      std::make_shared<ErrorStrategy>(diagnostics, Code::dependency_syntax,
                                                      describe_dependency_token, 1),
                      observer, ParseTree::labels_only, &DependencyGrammar::dependency,
                      [&](DependencyGrammar::DependencyContext& tree) {
                          return DependencyAstBuilder(diagnostics).dependency(tree);
                      });
}

} // namespace jobspec::syntax
