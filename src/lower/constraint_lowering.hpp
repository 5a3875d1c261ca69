// RFC 31 constraint objects, document tree -> Constraint.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <jobspec/constraint_model.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

#include "support/json_pointer.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// Reads an RFC 31 constraint, checking operators (properties, hostlist, ranks, not, or,
/// and), value types, `not` having at most one constraint, and the values themselves
/// (property names, RFC 29 hostlists, RFC 22 idsets). Reports constraint.* at `pointer`
/// (extended as it descends) with the ranges the tree has; the result is meaningful only
/// when no error was added. In the Fluxion dialect a `ranks` value may also be an integer
/// at least 0 (one rank), as Fluxion reads it.
Constraint lower_constraint(const syntax::DocNode& n, support::JsonPointer& pointer,
                            Diagnostics& diagnostics, Dialect dialect = Dialect::rfc);

/// What is wrong with `value` as a value of `op` (properties, hostlist or ranks), as the
/// message lower_constraint reports (constraint.value); nothing when it is valid. An
/// operator other than properties or hostlist is read as ranks.
std::optional<std::string> operand_problem(std::string_view op, std::string_view value);

} // namespace jobspec::lower
