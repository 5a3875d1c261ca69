// RFC 49's TreePool scheduling key, as R's rank operations change it.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <jobspec/resource_set_model.hpp>

namespace jobspec::model {

/// TreePool's entries with each one's ranks passed through `ranks` (RFC 49: trimmed to
/// an allocation's ranks, or renumbered for a sub-instance); an entry left with no rank
/// is dropped, and the topology is carried unchanged. Nothing stays nothing.
std::optional<std::vector<TreePoolEntry>>
treepool_mapped(const std::optional<std::vector<TreePoolEntry>>& treepool,
                const std::function<IdSet(const IdSet&)>& ranks);

} // namespace jobspec::model
