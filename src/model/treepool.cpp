// RFC 49's TreePool scheduling key through R's rank operations.
#include "model/treepool.hpp"

namespace jobspec::model {

std::optional<std::vector<TreePoolEntry>>
treepool_mapped(const std::optional<std::vector<TreePoolEntry>>& treepool,
                const std::function<IdSet(const IdSet&)>& ranks) {
    if (!treepool)
        return std::nullopt;
    std::vector<TreePoolEntry> kept;
    for (const auto& entry : *treepool)
        if (IdSet mapped = ranks(entry.ranks); !mapped.empty())
            kept.push_back({std::move(mapped), entry.topo});
    return kept;
}

} // namespace jobspec::model
