// Constraints: reading RFC 31 objects and compiling RFC 35 queries into them.
#pragma once

#include <string_view>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/constraint_model.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Compiles an RFC 35 query into a constraint: terms operator:operand (quoted operands
/// allowed), whitespace or & && and for AND, | || or for OR, not and -term for NOT, with
/// not binding tightest, then and, then or. Fails with query.* and limit.* diagnostics.
/// Example: "ssd and not host:foo[1-3]" ->
/// {"and":[{"properties":["ssd"]},{"not":[{"hostlist":["foo[1-3]"]}]}]}.
JOBSPEC_API Result<Constraint> parse_constraint_query(std::string_view query,
                                                      const QueryOptions& options = {});

/// Reads an RFC 31 constraint object, checking operators (properties, hostlist, ranks, not,
/// or, and), value types, `not` having at most one constraint, and the values themselves
/// (property names, RFC 29 hostlists, RFC 22 idsets). Diagnostics are constraint.* with a
/// JSON pointer under `pointer`.
JOBSPEC_API Result<Constraint> constraint_from_json(const boost::json::value& value,
                                                    std::string_view pointer = {});

/// The same from JSON text.
JOBSPEC_API Result<Constraint> read_constraint(std::string_view text, const Limits& limits = {});

/// Whether `value` is a valid value of operator `op` as constraint_from_json checks each
/// one: a property name, negated by a leading '^' or not, for properties; an RFC 29
/// hostlist for hostlist; an RFC 22 idset for ranks. False for any other operator, the
/// logical ones included. For callers that build a constraint term by term and read it
/// with constraint_from_json only when a term fails, for its located diagnostics.
JOBSPEC_API bool valid_constraint_operand(std::string_view op, std::string_view value);

} // namespace jobspec
