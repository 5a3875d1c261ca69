// The one place that wires the directive lexer, the generated parser, our error strategy
// and the builder together.
#include "syntax/directives.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "Directives.h"
#include "syntax/directive_builder.hpp"
#include "syntax/directive_lexer.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/run_parser.hpp"

namespace jobspec::syntax {

namespace {

using DirectivesGrammar = grammar::Directives;

} // namespace

std::string describe_directive_token(std::size_t type) {
    switch (type) {
    case DirectivesGrammar::NEWLINE:
        return "a line end";
    case DirectivesGrammar::TAG:
        return "'flux:'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::vector<Directive> read_directives(std::string_view script, Diagnostics& diagnostics,
                                       ParseObserver* observer) {
    const std::size_t errors_before = diagnostics.error_count();
    DirectiveTokenSource source(script);
    // Every token sequence the lexer makes parses, so a syntax error would be a defect of
    // the grammars; the first one is reported and ends the parse.
    auto out = run_parser(source, diagnostics, errors_before,
                          std::make_shared<ErrorStrategy>(diagnostics, Code::directive_quote,
                                                          describe_directive_token, 1),
                          observer, ParseTree::labels_only, &DirectivesGrammar::script,
                          [&](DirectivesGrammar::ScriptContext& tree) {
                              return DirectiveBuilder(script, diagnostics).script(tree);
                          });
    return out ? std::move(*out) : std::vector<Directive>{};
}

} // namespace jobspec::syntax
