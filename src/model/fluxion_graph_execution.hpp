// Internal: the R version 1 view of Fluxion's resource graph (its nodes, cores and GPUs).
#pragma once

#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/resource_set_model.hpp>

namespace jobspec::model {

/// The graph's nodes as R's execution: each node's rank (execution_ranks) with the ids of
/// the cores and GPUs beneath it (their logical ids, or their positions when two of a node
/// share one), its name as host, and its properties as R properties (names R cannot hold
/// are left out).
ResourceSet execution_of(const FluxionGraph& g);

} // namespace jobspec::model
