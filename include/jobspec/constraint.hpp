// Constraints: RFC 31 objects, the RFC 35 query language, and matching against R.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// An RFC 31 constraint: an operator with its values ({"properties": ["ssd"]}), or a
/// logical one over constraints ({"not": [...]}, {"or": [...]}, {"and": [...]}). The empty
/// object {} is an `and` with no children (it matches everything).
struct JOBSPEC_API Constraint {
    std::string op;
    /// The values of properties, hostlist, ranks or another operator.
    std::vector<std::string> values;
    /// The constraints of not, or and and.
    std::vector<Constraint> children;

    bool logical() const noexcept { return op == "not" || op == "or" || op == "and"; }

    /// The execution targets of `r` that satisfy the constraint, computed on sets (a
    /// property is its rank idset, a hostlist the ranks of its hosts, not a complement):
    ///   properties [a, ^b]  ranks with every property a and none of b
    ///   hostlist [h...]     ranks whose host is in any of the hostlists
    ///   ranks [i...]        ranks in any of the idsets
    ///   not [c]             all ranks but those of c; not [] matches nothing
    ///   or [...]/and [...]  union/intersection; or [], and [] and {} match everything
    /// Fails (constraint.unmatchable) for an operator outside RFC 31's set.
    Result<IdSet> match(const ResourceSet& r) const;

    friend bool operator==(const Constraint&, const Constraint&) = default;
};

/// How a query is read.
struct QueryOptions {
    /// Nothing: the dialect of `--requires`, where a bare operand is a property, `host`
    /// and `hosts` mean hostlist, `rank` means ranks, properties split on ',' and
    /// properties joined by AND combine into one term, and only RFC 31's operators are
    /// accepted. An operator name: RFC 35's plain language with that default operator
    /// and any operator taken as written (RFC 35's examples use "name").
    std::optional<std::string> default_operator;
    Limits limits;
};

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
