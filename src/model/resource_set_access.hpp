// Internal: building a ResourceSet's groups in bulk (readers and set operations).
#pragma once

#include <algorithm>
#include <vector>

#include <jobspec/resource_set_model.hpp>

namespace jobspec {

/// Lets the library's own code set a ResourceSet's groups at once, in time linear in
/// their number, where ResourceSet::add would check each against all the others.
struct ResourceSetAccess {
    /// Precondition: ranks are disjoint across groups and children distinct per group.
    static void assign(ResourceSet& set, std::vector<ResourceSet::Group> groups) {
        std::erase_if(groups, [](const auto& g) { return g.ranks.empty(); });
        std::sort(groups.begin(), groups.end(),
                  [](const auto& x, const auto& y) { return x.ranks.first() < y.ranks.first(); });
        set.groups_ = std::move(groups);
    }
};

} // namespace jobspec
