// Reading a query with ConstraintQuery's flux rules (see jobspec/flux_query_model.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/flux_query_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::syntax {

/// One step of flux's parse, in the order its parser reduces: a term (pushing
/// terms[term]), `not` of the last value, or `and`/`or` of the last two (the earlier one
/// first). Folding the steps over a stack gives the query's value.
struct FluxQueryStep {
    enum class Kind : std::uint8_t { term, not_, and_, or_ };
    Kind kind = Kind::term;
    std::uint32_t term = 0;
};

/// A query as flux reads it: its terms in source order, and either its steps or the
/// error that stops flux, after flux has read `terms_before_error` of the terms (each
/// of which the caller converts first, since a bad term is reported before a later error).
struct FluxQuery {
    std::vector<FluxQueryTerm> terms;
    std::vector<FluxQueryStep> steps;
    std::optional<FluxQueryError> error;
    std::size_t terms_before_error = 0;
    /// jobspec's located diagnostics for the error (query.* and limit.*), for callers that
    /// show where it is; empty when there is none.
    Diagnostics diagnostics;
};

/// Lexes `text` with flux's grouping (QueryTokenSource), parses it with the fluxQuery rule and
/// folds the parse into flux's reduction steps; the first error, lexer's or parser's, in the order
/// flux meets them. Diagnostics are added only for limits (the caller words the rest).
FluxQuery parse_flux_query(std::string_view text, const Limits& limits = {});

} // namespace jobspec::syntax
