// Placing a jobspec's resources on R's ranks, first fit in rank order.
#pragma once

#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

#include "match/ground.hpp"

namespace jobspec::match {

/// One allocation of R's ranks (R_lite; a Fluxion graph in R is not read) for any
/// canonical jobspec, or why there is none (see jobspec::match_jobspec). In the Fluxion
/// dialect (the jobspec's), each of the jobspec's xor_slot candidates in turn
/// (match/xor_candidates.hpp), the first that fits winning, with slots side by side
/// Fluxion's or-slots (placement_plan).
Result<ResourceSet> rank_fit(const Jobspec& jobspec, const ResourceSet& r,
                             const Ground& ground = {});

} // namespace jobspec::match
