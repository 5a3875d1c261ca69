// Reading a query with ConstraintQuery's flux rules (see jobspec/flux_query_model.hpp).
#pragma once

#include <string_view>

#include <jobspec/flux_query_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::syntax {

/// Lexes `text` with FluxQueryTokenSource, parses it with the fluxQuery rule and folds
/// the parse into flux's reduction steps; the first error, lexer's or parser's, in the
/// order flux meets them. Diagnostics are added only for limits (the caller words the rest).
FluxQuery parse_flux_query(std::string_view text, const Limits& limits);

} // namespace jobspec::syntax
