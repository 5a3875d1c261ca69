// RFC 35 queries read as flux-core's ConstraintParser reads them, for drop-ins that must
// give flux's results: flux's lexing and grouping, with what a term means and how values
// combine (which flux keeps in its parser class) left to the caller.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/flux_query_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec {

/// What a drop-in does with flux's reading of a query: it makes a value of each term and
/// combines the values, on a stack of its own, in the order flux's parser reduces them.
class JOBSPEC_API FluxQueryFold {
public:
    virtual ~FluxQueryFold() = default;
    /// Pushes the value of `term` ("op:operand" as flux's lexer makes it).
    virtual void term(const FluxQueryTerm& term) = 0;
    /// Replaces the last value by its negation (`not`, `-`).
    virtual void negate() = 0;
    /// Replaces the last two values, the earlier first, by their conjunction (`and`,
    /// `&`, juxtaposition) or, when `conjunction` is false, their disjunction.
    virtual void combine(bool conjunction) = 0;
};

/// Where flux stops reading a query: its error, and jobspec's located diagnostics for it
/// (query.* and limit.*), for callers that show where it is.
struct FluxQueryStop {
    FluxQueryError error;
    Diagnostics diagnostics;
};

/// Reads `query` with flux-core's ConstraintParser lexer and grouping, on jobspec's
/// ConstraintQuery grammar (its flux rules), and folds it: `fold` sees each term and each
/// reduction in flux's order, and holds one value at the end. Where flux stops, `fold`
/// sees only the terms flux converts before it stops (a bad term is reported before a
/// later error), and the error is returned; input over `limits` (size, or nesting deeper
/// than max_depth) stops with a `limit` error. What the fold's functions throw passes
/// through.
JOBSPEC_API std::optional<FluxQueryStop>
fold_flux_query(std::string_view query, FluxQueryFold& fold, const Limits& limits = {});

} // namespace jobspec
