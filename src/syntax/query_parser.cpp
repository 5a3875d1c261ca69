// The one place that wires the query token source, the generated parser and our error
// strategy together.
#include "syntax/query_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "ConstraintQuery.h"
#include "support/input_limit.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/query_ast_builder.hpp"
#include "syntax/query_lexer.hpp"
#include "syntax/run_parser.hpp"

namespace jobspec::syntax {

namespace {

using QueryGrammar = grammar::ConstraintQuery;

} // namespace

std::string describe_query_token(std::size_t type) {
    switch (type) {
    case QueryGrammar::WORD:
        return "a term";
    case QueryGrammar::QUOTED:
        return "a quoted operand";
    case QueryGrammar::COLON:
        return "':'";
    case QueryGrammar::AND:
        return "'and'";
    case QueryGrammar::OR:
        return "'or'";
    case QueryGrammar::NOT:
        return "'not'";
    case QueryGrammar::MINUS:
        return "'-'";
    case QueryGrammar::LPAREN:
        return "'('";
    case QueryGrammar::RPAREN:
        return "')'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<ParsedQuery> parse_query(std::string_view text, const Limits& limits,
                                       Diagnostics& diagnostics, ParseObserver* observer) {
    if (!support::within_input_limit(text, limits, "query", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    QueryTokenSource source(text, limits, diagnostics);
    auto parsed = run_parser(
        source, diagnostics, errors_before,
        std::make_shared<ErrorStrategy>(diagnostics, Code::query_syntax, describe_query_token,
                                        limits.max_diagnostics),
        observer, ParseTree::labels_only, &QueryGrammar::query,
        [&](QueryGrammar::QueryContext& tree) -> std::optional<ParsedQuery> {
            auto ast = QueryAstBuilder().query(tree);
            if (!ast)
                return std::nullopt;
            return ParsedQuery{std::move(*ast), diagnostics.error_count() > errors_before};
        },
        AfterErrors::build);
    return parsed ? std::move(*parsed) : std::nullopt;
}

} // namespace jobspec::syntax
