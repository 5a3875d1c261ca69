// Internal: the R version 1 view of Fluxion's resource graph (its nodes, cores and GPUs).
#pragma once

#include <cstdint>
#include <vector>

#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/resource_set_model.hpp>

namespace jobspec::model {

/// The rank of each node vertex (by vertex index; -1 for other vertices): the ranks the
/// graph gives when every node has its own rank of at least 0, else the nodes numbered
/// 0, 1, ... in vertex order (resource-query's graphs leave ranks at -1).
std::vector<std::int64_t> node_ranks(const FluxionGraph& g);

/// The graph's nodes as R's execution: each node's rank (node_ranks) with the ids of the
/// cores and GPUs beneath it (their logical ids, or their positions when two of a node
/// share one), its name as host, and its properties as R properties (names R cannot hold
/// are left out). With `kept` (by vertex index), only the nodes kept and the cores and
/// GPUs kept beneath them.
ResourceSet execution_of(const FluxionGraph& g, const std::vector<std::int64_t>& ranks,
                         const std::vector<bool>* kept = nullptr);

} // namespace jobspec::model
