// Fluxion's resource graph (JGF) document tree -> FluxionGraph.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/fluxion_graph_model.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// A JGF document (an object whose `graph` has `nodes` and `edges`) read as Fluxion's JGF
/// reader reads it: each vertex a string `id` and `metadata` with `type` and `paths`
/// required; `basename`, `name`, `unit` strings; `id`, `uniq_id`, `rank`, `size`, `status`
/// integers; `exclusive` a boolean; `properties` string values; Fluxion's defaults for
/// what is left out (uniq_id from a numeric vertex id, id from it or from a node name's
/// trailing digits, basename the type, name basename and id, size 1). Edges name
/// vertices by id; their `metadata.subsystem` defaults to containment. The containment
/// edges must make a tree under the one vertex whose containment path has one level.
/// Reports graph.* (and limit.depth past Limits::depth_ceiling levels) at JSON pointers
/// under `base`; graph.unreachable, a warning, once for the vertices outside the tree.
/// Nothing when an error was added.
std::optional<FluxionGraph> lower_fluxion_graph(const syntax::DocNode& jgf, std::string_view base,
                                                Diagnostics& diagnostics);

/// Whether a dictionary is a JGF document (it has `graph` and neither R key).
bool is_jgf_document(const syntax::DocNode& doc) noexcept;

} // namespace jobspec::lower
