// What a placement may take besides R: the match's ground, shared by every matcher.
#pragma once

#include <string>

#include <jobspec/constraint_model.hpp>
#include <jobspec/resource_set_model.hpp>

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

} // namespace jobspec::match
