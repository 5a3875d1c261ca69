// RFC 35 queries read as flux-core's ConstraintParser reads them, for drop-ins that must
// give flux's results: flux's lexing and grouping, with the operator configuration (which
// flux keeps in its parser class) left to the caller.
#pragma once

#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/flux_query_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec {

/// Reads `query` with flux-core's ConstraintParser lexer and grouping, on jobspec's
/// ConstraintQuery grammar (its flux rules). Never throws; bad input gives `error`, and
/// input over `limits` (size, or nesting deeper than max_depth) gives a `limit` error.
JOBSPEC_API FluxQuery read_flux_query(std::string_view query, const Limits& limits = {});

} // namespace jobspec
