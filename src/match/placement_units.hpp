// A jobspec's resources as what R version 1 can place: nodes, and task slots on one node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <jobspec/resource_graph.hpp>
#include <jobspec/result.hpp>

#include "match/demand_choices.hpp"

namespace jobspec::match {

/// A resource vertex of the request with its JSON pointer, for explanations.
struct VertexAt {
    const ResourceVertex* vertex = nullptr;
    std::string pointer;
};

/// Fluxion's or-slots side by side: how many instances one node or instance of the unit
/// holds (0: the unit's own instances are them), and each slot's cores and gpus, in the
/// order written (exact unless a slot holds or-slots itself: then its least of each).
struct OrSlots {
    std::uint64_t instances = 0;
    std::vector<Demand> shapes;
    bool exact = true;
};

/// One vertex whose count the scheduler chooses when it places the request: a node
/// vertex (each of its nodes a different rank), or the outermost vertex of a group with
/// no node in it (each instance on one rank: a task slot, or a core or gpu written
/// outside one). Fluxion's or-slots side by side are one unit, at the last of them.
struct PlacementUnit {
    enum class Kind : std::uint8_t { nodes, groups };
    Kind kind = Kind::nodes;
    VertexAt at;
    /// The least acceptable count of the vertex (for or-slots, see placement_plan).
    std::uint64_t least = 1;
    /// Instances of the vertex's parent: the product of the least counts above it.
    std::uint64_t multiplier = 1;
    /// The least cores and the least gpus one node, or one instance, needs: its contents
    /// at their least counts (with or-slots, the least of each over their shapes).
    Demand each;
    /// The or-slots that give a node or instance several shapes, if any: `ways` then
    /// says which cores and gpus can hold one (else it is held by `each`, and `ways` is
    /// not kept).
    std::vector<OrSlots> or_slots;
    DemandChoices ways;
    /// Task slots in one node or one instance (a slot counts itself).
    std::uint64_t slots_each = 0;
    /// Whole nodes: the node's `exclusive`, true by default inside a task slot (RFC 14).
    bool exclusive = false;
    /// The first core and gpu vertex of the unit, the vertex itself included.
    VertexAt core;
    VertexAt gpu;
};

/// The units of a request in the order written, and the task slots above its nodes
/// (slot=2/node=1 has two), which no unit counts.
struct PlacementPlan {
    std::vector<PlacementUnit> units;
    std::uint64_t slots_above_nodes = 0;
};

/// The request as units. Counts other than a unit's own take their least value, as
/// flux-core's scheduler takes them. A type R version 1 does not describe that holds
/// others (a socket, a cluster) stands for what it holds, count times, with a
/// match.unchecked warning per type. Fails with match.unsupported, at the vertex, for
/// what R version 1 cannot place: a type other than node, slot, core and gpu that holds
/// nothing (memory), a node inside a node, and anything inside a core or gpu.
///
/// With `or_slots` (the Fluxion dialect), task slots side by side are alternatives, as
/// Fluxion reads them: as many instances as the last one's count, each of any of their
/// shapes, and at least every one's least count (jobspec.unsatisfiable, at the slot,
/// when the last one's count cannot be that many). Or-slots of nodes are placed when
/// each holds just one node, which takes any of their shapes; anything else beside them
/// is match.unsupported. `most` is the most cores and gpus any node has: ways that need
/// more are dropped (PlacementUnit::ways).
Result<PlacementPlan> placement_plan(const ResourceList& resources, bool or_slots = false,
                                     const Demand& most = {UINT64_MAX, UINT64_MAX});

} // namespace jobspec::match
