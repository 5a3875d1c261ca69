// Placing a jobspec's resources on R, first fit in rank order.
#pragma once

#include <string>

#include <jobspec/constraint_model.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

#include "match/step_budget.hpp"

namespace jobspec::match {

/// What a placement may take besides R.
struct Ground {
    /// What is free now, or null for all of R.
    const ResourceSet* free = nullptr;
    /// A constraint the job must also meet (a queue's), or null, and whose it is
    /// ("queue 'batch'"), for explanations.
    const Constraint* also = nullptr;
    std::string also_from;
    /// The steps the placement may take, or null for no limit.
    StepBudget* budget = nullptr;
};

/// See jobspec::match_jobspec: one allocation of R for any canonical jobspec, or why there
/// is none. In the Fluxion dialect (the jobspec's), each of the jobspec's xor_slot candidates in
/// turn (match/xor_candidates.hpp), the first that fits winning, with slots side by side Fluxion's
/// or-slots (placement_plan).
Result<ResourceSet> first_fit(const Jobspec& jobspec, const ResourceSet& r,
                              const Ground& ground = {});

} // namespace jobspec::match
