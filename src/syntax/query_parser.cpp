// The one place that wires the query token source, the generated parser and our error
// strategy together, and turns the parse tree into the AST.
#include "syntax/query_parser.hpp"
#include "support/input_limit.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "ConstraintQuery.h"
#include "syntax/error_strategy.hpp"
#include "syntax/query_lexer.hpp"
#include "syntax/run_parser.hpp"
#include "syntax/tree_child.hpp"

namespace jobspec::syntax {

namespace {

using G = grammar::ConstraintQuery;

SourceRange range(antlr4::ParserRuleContext& ctx) {
    return {token_range(*ctx.getStart()).begin, token_range(*ctx.getStop()).end};
}

/// Parse tree -> AST, one method per rule.
class QueryAstBuilder {
public:
    QueryNode or_expr(G::OrExprContext& ctx) { return chain(QueryNode::Kind::or_, ctx); }

private:
    QueryNode node(antlr4::ParserRuleContext& ctx) {
        switch (ctx.getRuleIndex()) {
        case G::RuleOrExpr:
            return chain(QueryNode::Kind::or_, ctx);
        case G::RuleAndExpr:
            return chain(QueryNode::Kind::and_, ctx);
        case G::RuleUnary:
            return unary(ctx);
        default:
            return term(ctx);
        }
    }

    /// orExpr and andExpr: their operands, or the one operand itself.
    QueryNode chain(QueryNode::Kind kind, antlr4::ParserRuleContext& ctx) {
        QueryNode n;
        n.kind = kind;
        n.range = range(ctx);
        for (auto* child : ctx.children)
            if (const auto c = tree_child(child); c.rule != nullptr)
                n.children.push_back(node(*c.rule));
        if (n.children.size() == 1)
            return std::move(n.children.front());
        return n;
    }

    /// NOT unary | LPAREN orExpr RPAREN | MINUS term | term
    QueryNode unary(antlr4::ParserRuleContext& ctx) {
        const auto first = tree_child(ctx.children.front());
        if (first.rule != nullptr)
            return node(*first.rule);
        auto& operand = *tree_child(ctx.children[1]).rule;
        if (first.token_type() == G::LPAREN)
            return node(operand);
        QueryNode n;
        n.kind = QueryNode::Kind::not_;
        n.range = range(ctx);
        n.children.push_back(node(operand));
        return n;
    }

    /// (WORD COLON)? (WORD | QUOTED)
    QueryNode term(antlr4::ParserRuleContext& ctx) {
        QueryNode n;
        n.range = range(ctx);
        const antlr4::Token* value = tree_child(ctx.children.back()).token;
        if (ctx.children.size() == 3) {
            const antlr4::Token* op = tree_child(ctx.children.front()).token;
            n.op = op->getText();
            n.op_range = token_range(*op);
        }
        const std::string text = value->getText();
        n.operand_range = token_range(*value);
        n.quoted = value->getType() == G::QUOTED;
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
    if (!support::within_input_limit(text, limits, "query", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    QueryTokenSource source(text, limits, diagnostics);
    return run_parser(source, diagnostics, errors_before,
                      std::make_shared<ErrorStrategy>(diagnostics, Code::query_syntax,
                                                      describe_query_token, limits.max_diagnostics),
                      observer, ParseTree::build, &G::query, [](G::QueryContext& tree) {
                          return QueryAstBuilder().or_expr(*tree.orExpr());
                      });
}

} // namespace jobspec::syntax
