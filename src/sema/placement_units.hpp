// A jobspec's resources as what R version 1 can place: nodes, and task slots on one node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <jobspec/resource_graph.hpp>
#include <jobspec/result.hpp>

namespace jobspec::sema {

/// Cores and GPUs that one node or one placed group needs.
struct Demand {
    std::uint64_t cores = 0;
    std::uint64_t gpus = 0;
};

/// A resource vertex of the request with its JSON pointer, for explanations.
struct VertexAt {
    const ResourceVertex* vertex = nullptr;
    std::string pointer;
};

/// One vertex whose count the scheduler chooses when it places the request: a node
/// vertex (each of its nodes a different rank), or the outermost vertex of a group with
/// no node in it (each instance on one rank: a task slot, or a core or gpu written
/// outside one).
struct PlacementUnit {
    enum class Kind : std::uint8_t { nodes, groups };
    Kind kind = Kind::nodes;
    VertexAt at;
    /// Instances of the vertex's parent: the product of the least counts above it.
    std::uint64_t multiplier = 1;
    /// What one node, or one instance, needs: its contents at their least counts.
    Demand each;
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
Result<PlacementPlan> placement_plan(const ResourceList& resources);


} // namespace jobspec::sema
