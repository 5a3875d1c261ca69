// Parse tree -> constraint query AST: one method per grammar rule.
#pragma once

#include <optional>

#include <jobspec/diagnostic.hpp>

#include "ConstraintQuery.h"
#include "syntax/query_parser.hpp"

namespace jobspec::syntax {

/// Converts a parse into the query AST, reading only the grammar's labels (filled with
/// or without a parse tree) and copying text and ranges out. After syntax errors
/// (error recovery may have left labels empty or conjured missing tokens) the AST holds
/// what was written and parsed: an operand that is not there leaves its term out, and an
/// and/or/not left with nothing is left out too.
class QueryAstBuilder {
public:
    /// The query's AST; nothing only when error recovery left no term at all.
    std::optional<QueryNode> query(grammar::ConstraintQuery::QueryContext& ctx);

private:
    using G = grammar::ConstraintQuery;

    std::optional<QueryNode> or_expr(G::OrExprContext* ctx);
    std::optional<QueryNode> and_expr(G::AndExprContext* ctx);
    std::optional<QueryNode> unary(G::UnaryContext* ctx);
    std::optional<QueryNode> term(G::TermContext* ctx);
};

} // namespace jobspec::syntax
