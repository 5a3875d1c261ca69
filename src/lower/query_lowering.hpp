// RFC 35 query AST -> RFC 31 constraint, in the --requires dialect or the plain one.
#pragma once

#include <jobspec/constraint_model.hpp>
#include <jobspec/diagnostic.hpp>

#include "syntax/query_parser.hpp"

namespace jobspec::lower {

/// The constraint a query's AST says (see parse_constraint_query for the dialects).
/// Reports query.unknown-operator and query.value at the terms' ranges; the result is
/// meaningful only when no error was added.
Constraint lower_query(const syntax::QueryNode& query, const QueryOptions& options,
                       Diagnostics& diagnostics);

} // namespace jobspec::lower
