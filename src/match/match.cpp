#include "match/match.hpp"

#include "match/graph_fit.hpp"
#include "match/rank_fit.hpp"

namespace jobspec::match {

Result<ResourceSet> find_allocation(const Jobspec& jobspec, const ResourceSet& r,
                                    const Ground& ground) {
    return r.fluxion_graph ? graph_fit(jobspec, r, ground) : rank_fit(jobspec, r, ground);
}

} // namespace jobspec::match
