// RFC 31 constraint objects, document tree -> Constraint.
#pragma once

#include <jobspec/constraint.hpp>
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

} // namespace jobspec::lower
