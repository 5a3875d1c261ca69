// Can this jobspec run on these resources? One allocation, or what is missing.
#pragma once

#include <jobspec/api.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Finds one allocation of R for a V1 jobspec, first fit over the ranks (in rank order) that
/// satisfy the jobspec's constraints: with a node vertex, the first N ranks that each hold
/// its slots' cores and GPUs (the whole rank when the node is exclusive); without one, the
/// slots packed onto ranks in order. The allocation has nslots set and leaves out
/// instance-local (+) properties, as RFC 20 asks of schedulers. Fails with v1.* when the
/// jobspec is not V1, and jobspec.unsatisfiable naming the requirement that cannot be met
/// ("needs 4 nodes with 2 gpus each; 3 of the 10 that match the constraints have them").
/// In the Fluxion dialect, as Fluxion's flexible traverser tries xor_slots: each choice
/// of resources they stand for in its order (at most 1000, else limit.expansion), the
/// first that fits winning; each must be V1 in shape, its version and task slot are not
/// checked. Sibling slots (Fluxion's or-slots) are not allocated (a v1.* error).
JOBSPEC_API Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r,
                                         Dialect dialect = Dialect::rfc);

} // namespace jobspec
