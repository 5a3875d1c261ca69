// The one place that wires the query token source, the generated parser and our error
// strategy together, and turns the parse tree into the AST.
#include "syntax/query_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include "ConstraintQuery.h"
#include "syntax/error_strategy.hpp"
#include "syntax/query_lexer.hpp"

namespace jobspec::syntax {

namespace {

using G = grammar::ConstraintQuery;

SourceRange range(antlr4::ParserRuleContext& ctx) {
    return {token_range(*ctx.getStart()).begin, token_range(*ctx.getStop()).end};
}

/// Parse tree -> AST, one method per rule.
class QueryAstBuilder {
public:
    QueryNode or_expr(G::OrExprContext& ctx) {
        return chain(QueryNode::Kind::or_, ctx.andExpr(), ctx,
                     [this](G::AndExprContext* c) { return and_expr(*c); });
    }

private:
    QueryNode and_expr(G::AndExprContext& ctx) {
        return chain(QueryNode::Kind::and_, ctx.unary(), ctx,
                     [this](G::UnaryContext* c) { return unary(*c); });
    }

    template <class Child, class Build>
    QueryNode chain(QueryNode::Kind kind, const std::vector<Child*>& parts,
                    antlr4::ParserRuleContext& ctx, Build build) {
        if (parts.size() == 1)
            return build(parts.front());
        QueryNode n;
        n.kind = kind;
        n.range = range(ctx);
        for (auto* p : parts)
            n.children.push_back(build(p));
        return n;
    }

    QueryNode unary(G::UnaryContext& ctx) {
        if (ctx.NOT() != nullptr || ctx.MINUS() != nullptr) {
            QueryNode n;
            n.kind = QueryNode::Kind::not_;
            n.range = range(ctx);
            n.children.push_back(ctx.unary() != nullptr ? unary(*ctx.unary()) : term(*ctx.term()));
            return n;
        }
        if (auto* inner = ctx.orExpr())
            return or_expr(*inner);
        return term(*ctx.term());
    }

    QueryNode term(G::TermContext& ctx) {
        QueryNode n;
        n.range = range(ctx);
        auto* value = ctx.QUOTED() != nullptr ? ctx.QUOTED() : ctx.WORD().back();
        if (ctx.COLON() != nullptr) {
            n.op = ctx.WORD(0)->getText();
            n.op_range = token_range(*ctx.WORD(0)->getSymbol());
        }
        const std::string text = value->getText();
        n.operand_range = token_range(*value->getSymbol());
        n.quoted = ctx.QUOTED() != nullptr;
        n.operand = n.quoted ? text.substr(1, text.size() - 2) : text;
        return n;
    }
};

} // namespace

std::string describe_query_token(std::size_t type) {
    switch (type) {
    case G::WORD:
        return "a term";
    case G::QUOTED:
        return "a quoted operand";
    case G::COLON:
        return "':'";
    case G::AND:
        return "'and'";
    case G::OR:
        return "'or'";
    case G::NOT:
        return "'not'";
    case G::MINUS:
        return "'-'";
    case G::LPAREN:
        return "'('";
    case G::RPAREN:
        return "')'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<QueryNode> parse_query(std::string_view text, const Limits& limits,
                                     Diagnostics& diagnostics, ParseObserver* observer) {
    if (text.size() > limits.max_input_bytes) {
        diagnostics.add(Code::limit_input_size,
                        fmt::format("query is {} bytes long, more than the limit of {}",
                                    text.size(), limits.max_input_bytes),
                        Location{SourceRange{0, 0}, {}});
        return std::nullopt;
    }
    const std::size_t errors_before = diagnostics.error_count();
    QueryTokenSource source(text, limits, diagnostics);
    if (observer != nullptr)
        observer->lexed(source);
    if (source.fatal())
        return std::nullopt;
    antlr4::CommonTokenStream tokens(&source);
    G parser(&tokens);
    parser.removeErrorListeners();
    parser.setErrorHandler(std::make_shared<ErrorStrategy>(
        diagnostics, Code::query_syntax, describe_query_token, limits.max_diagnostics));
    G::QueryContext* tree = nullptr;
    if (observer != nullptr)
        observer->parsing(parser);
    try {
        tree = parser.query();
    } catch (const antlr4::ParseCancellationException&) {
        if (observer != nullptr)
            observer->parsed(parser, nullptr);
        return std::nullopt;
    }
    if (observer != nullptr)
        observer->parsed(parser, tree);
    if (diagnostics.error_count() > errors_before)
        return std::nullopt;
    return QueryAstBuilder().or_expr(*tree->orExpr());
}

} // namespace jobspec::syntax
