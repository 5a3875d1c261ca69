// Placing a jobspec on Fluxion's resource graph, as Fluxion's traverser places it.
#pragma once

#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

#include "match/ground.hpp"

namespace jobspec::match {

/// One allocation of r's Fluxion graph (r.fluxion_graph, which must be set) for the
/// jobspec, by the rules docs/FLUXION.md states: a request may leave out the levels above
/// it (the search goes down until a vertex of its type, or one whose children hold a
/// slot's types), then each level matches the next level of the graph; a count takes the
/// most that is acceptable and there, summing sizes for pooled types (memory, storage),
/// whole vertices taken; a slot is at the vertex whose children hold its resources, and
/// all in it is exclusive; or-slots and xor_slots as Fluxion's flexible traverser reads
/// them; constraints apply at node and storage_node vertices (their properties, names and
/// ranks, and R's properties of their ranks). Down vertices, and with ground.free those
/// not in its graph, are not free. The allocation is R: the nodes' ranks, cores and GPUs
/// as execution, the vertices taken (exclusive) and those above them (shared) as its
/// graph. Errors: jobspec.unsatisfiable naming the level and the sum that fail;
/// match.pending when only what is free is missing; match.unsupported for what the
/// traverser cannot read (a type twice at one level, a slot beside another resource).
Result<ResourceSet> graph_fit(const Jobspec& jobspec, const ResourceSet& r,
                              const Ground& ground);

} // namespace jobspec::match
