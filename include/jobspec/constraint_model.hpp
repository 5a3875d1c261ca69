// The RFC 31 constraint: its value, and matching it against R.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set_model.hpp>
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

} // namespace jobspec
