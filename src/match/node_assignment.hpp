// Which class of nodes each node request takes its nodes from: a transportation problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "match/step_budget.hpp"

namespace jobspec::match {

/// Node requests (each needing so many different ranks) against classes of ranks (each
/// so many ranks that hold the same), with which classes can give each request its nodes.
struct NodeAssignment {
    std::vector<std::uint64_t> needs;
    std::vector<std::uint64_t> sizes;
    /// eligible[request][class]
    std::vector<std::vector<bool>> eligible;
    /// What the flows may spend, or null for no limit.
    StepBudget* budget = nullptr;

    /// How many ranks could give request k its nodes, ignoring the other requests.
    std::uint64_t eligible_ranks(std::size_t k) const;
    /// Whether the first `requests` requests can all have their nodes at once.
    bool feasible(std::size_t requests) const;
    /// How many nodes each request takes from each class (quotas[request][class]), or
    /// nothing when the requests cannot all be met.
    std::optional<std::vector<std::vector<std::uint64_t>>> assign() const;
};

} // namespace jobspec::match
