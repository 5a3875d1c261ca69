// The one door into matching: the matcher picked from R and the jobspec's dialect.
#pragma once

#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

#include "match/ground.hpp"

namespace jobspec::match {

/// One allocation of `r` for the jobspec, or why there is none: on Fluxion's graph when
/// R carries one (graph_fit), else on R's ranks (rank_fit).
Result<ResourceSet> find_allocation(const Jobspec& jobspec, const ResourceSet& r,
                                    const Ground& ground = {});

} // namespace jobspec::match
