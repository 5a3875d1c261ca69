// A placement that says how much work it took, for callers that pace their own work.
#pragma once

#include <cstdint>

#include <jobspec/match.hpp>

namespace jobspec::api {

/// match_jobspec of a jobspec already read, under options.max_steps (none: no limit), and
/// the steps it took in `steps` (all it was allowed, when it stopped with match.budget).
Result<ResourceSet> match_counted(const Jobspec& jobspec, const ResourceSet& r,
                                  const MatchOptions& options, std::uint64_t& steps);

} // namespace jobspec::api
