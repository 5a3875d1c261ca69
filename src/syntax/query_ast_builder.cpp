#include "syntax/query_ast_builder.hpp"

#include "syntax/token_ranges.hpp"

namespace jobspec::syntax {

namespace {

/// An and/or over `operands`: the one operand itself when there is one, nothing when
/// there is none.
template <class Context, class Operand>
std::optional<QueryNode> chain(QueryNode::Kind kind, Context& ctx,
                               const std::vector<Operand*>& operands, auto&& build) {
    QueryNode n;
    n.kind = kind;
    n.range = rule_range(ctx);
    for (auto* operand : operands)
        if (auto child = build(operand))
            n.children.push_back(std::move(*child));
    if (n.children.empty())
        return std::nullopt;
    if (n.children.size() == 1)
        return std::move(n.children.front());
    return n;
}

} // namespace

std::optional<QueryNode> QueryAstBuilder::query(G::QueryContext& ctx) {
    return or_expr(ctx.body);
}

std::optional<QueryNode> QueryAstBuilder::or_expr(G::OrExprContext* ctx) {
    if (ctx == nullptr)
        return std::nullopt;
    return chain(QueryNode::Kind::or_, *ctx, ctx->operands,
                 [&](G::AndExprContext* operand) { return and_expr(operand); });
}

std::optional<QueryNode> QueryAstBuilder::and_expr(G::AndExprContext* ctx) {
    if (ctx == nullptr)
        return std::nullopt;
    return chain(QueryNode::Kind::and_, *ctx, ctx->operands,
                 [&](G::UnaryContext* operand) { return unary(operand); });
}

/// NOT negated=unary | LPAREN group=orExpr RPAREN | MINUS excluded=term | single=term
std::optional<QueryNode> QueryAstBuilder::unary(G::UnaryContext* ctx) {
    if (ctx == nullptr)
        return std::nullopt;
    if (ctx->group != nullptr)
        return or_expr(ctx->group);
    if (ctx->single != nullptr)
        return term(ctx->single);
    auto operand = ctx->negated != nullptr ? unary(ctx->negated) : term(ctx->excluded);
    if (!operand)
        return std::nullopt;
    QueryNode n;
    n.kind = QueryNode::Kind::not_;
    n.range = rule_range(*ctx);
    n.children.push_back(std::move(*operand));
    return n;
}

/// (op=WORD COLON)? operand=(WORD | QUOTED)
std::optional<QueryNode> QueryAstBuilder::term(G::TermContext* ctx) {
    if (ctx == nullptr || !present(ctx->operand))
        return std::nullopt;
    QueryNode n;
    n.range = rule_range(*ctx);
    if (present(ctx->op)) {
        n.op = ctx->op->getText();
        n.op_range = token_range(*ctx->op);
    }
    const std::string text = ctx->operand->getText();
    n.operand_range = token_range(*ctx->operand);
    n.quoted = ctx->operand->getType() == G::QUOTED;
    n.operand = n.quoted ? text.substr(1, text.size() - 2) : text;
    // A whole term in quotes is still operator:operand, split at its first ':', as
    // flux-core reads it ('t:p q' is t:'p q'); RFC 35 quotes terms, not only operands.
    if (const auto colon = n.operand.find(':');
        n.quoted && !present(ctx->op) && colon != std::string::npos) {
        const std::uint32_t at = n.operand_range.begin + 1;
        n.op = n.operand.substr(0, colon);
        n.op_range = SourceRange{at, at + static_cast<std::uint32_t>(colon)};
        n.operand.erase(0, colon + 1);
        // value_error counts offsets from one past the range's start, as for a quote.
        n.operand_range.begin = n.op_range.end;
    }
    return n;
}

} // namespace jobspec::syntax
