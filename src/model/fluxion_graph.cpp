// Fluxion's resource graph: lookups, what is derived once, and the R version 1 view of its
// nodes.
#include <jobspec/fluxion_graph_model.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "model/fluxion_graph_execution.hpp"
#include "model/resource_set_access.hpp"
#include "model/resource_set_build.hpp"

namespace jobspec {

bool FluxionVertex::has_property(std::string_view property) const noexcept {
    return std::any_of(properties.begin(), properties.end(),
                       [&](const auto& p) { return p.first == property; });
}

std::string_view FluxionVertex::containment_path() const noexcept {
    for (const auto& [subsystem, path] : paths)
        if (subsystem == "containment")
            return path;
    return {};
}

std::size_t FluxionGraph::count(std::string_view type) const noexcept {
    const auto it = types.find(type);
    return it == types.end() ? 0 : it->second.count;
}

std::uint32_t FluxionGraph::type_index(std::string_view type) const noexcept {
    const auto it = types.find(type);
    return it == types.end() ? no_type : it->second.index;
}

void FluxionGraph::index() {
    execution_ranks.assign(vertices.size(), -1);
    types.clear();
    briefs.clear();
    briefs.reserve(vertices.size());
    // The vertices the containment tree reaches from the root: Fluxion visits no other,
    // so only these nodes are ranks of R.
    std::vector<char> reached(vertices.size(), 0);
    std::vector<std::uint32_t> stack;
    if (!vertices.empty())
        stack.push_back(root);
    while (!stack.empty()) {
        const auto u = stack.back();
        stack.pop_back();
        reached[u] = 1;
        stack.insert(stack.end(), vertices[u].children.begin(), vertices[u].children.end());
    }
    std::unordered_set<std::int64_t> seen;
    bool own = true;
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const auto& v = vertices[i];
        auto& t = types[v.type];
        ++t.count;
        t.up += v.up ? 1 : 0;
        t.pooled = t.pooled || v.size != 1 || !v.unit.empty();
        if (t.unit.empty())
            t.unit = v.unit;
        if (v.type == "node" && reached[i] != 0 && (v.rank < 0 || !seen.insert(v.rank).second))
            own = false;
    }
    std::uint32_t next_type = 0;
    for (auto& [name, t] : types)
        t.index = next_type++;
    for (const auto& v : vertices)
        briefs.push_back({v.size, types.at(v.type).index, v.up});
    std::int64_t next = 0;
    for (std::size_t i = 0; i < vertices.size(); ++i)
        if (vertices[i].type == "node" && reached[i] != 0)
            execution_ranks[i] = own ? vertices[i].rank : next++;
    // What is beneath a node is on its rank (the nearest node above).
    if (!vertices.empty())
        stack.push_back(root);
    while (!stack.empty()) {
        const auto u = stack.back();
        stack.pop_back();
        for (auto c : vertices[u].children) {
            if (vertices[c].type != "node")
                execution_ranks[c] = execution_ranks[u];
            stack.push_back(c);
        }
    }
}

namespace model {

namespace {

/// The ids of one node's cores or GPUs: their logical ids, or positions when two share one.
IdSet ids_of(const FluxionGraph& g, const std::vector<std::uint32_t>& found) {
    std::set<std::int64_t> distinct;
    for (auto i : found)
        distinct.insert(g.vertices[i].id);
    const bool own =
        distinct.size() == found.size() && (distinct.empty() || *distinct.begin() >= 0);
    IdSet out;
    for (std::size_t k = 0; k < found.size(); ++k)
        out.insert(own ? static_cast<std::uint64_t>(g.vertices[found[k]].id) : k);
    return out;
}

} // namespace

ResourceSet execution_of(const FluxionGraph& g) {
    struct NodeEntry {
        std::int64_t rank;
        std::uint32_t vertex;
    };
    std::vector<NodeEntry> nodes;
    for (std::uint32_t i = 0; i < g.vertices.size(); ++i)
        if (g.vertices[i].type == "node" && g.execution_ranks[i] >= 0)
            nodes.push_back({g.execution_ranks[i], i});
    std::sort(nodes.begin(), nodes.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    Grouper groups;
    Hostlist hosts;
    std::map<std::string, IdSet, std::less<>> properties;
    std::vector<std::uint32_t> stack, cores, gpus;
    for (const auto& [rank, vertex] : nodes) {
        cores.clear();
        gpus.clear();
        stack.assign(g.vertices[vertex].children.rbegin(), g.vertices[vertex].children.rend());
        while (!stack.empty()) {
            const auto i = stack.back();
            stack.pop_back();
            const auto& v = g.vertices[i];
            if (v.type == "node")
                continue;
            if (v.type == "core")
                cores.push_back(i);
            else if (v.type == "gpu")
                gpus.push_back(i);
            stack.insert(stack.end(), v.children.rbegin(), v.children.rend());
        }
        const auto r = static_cast<std::uint64_t>(rank);
        groups.add(r, r, ids_of(g, cores), ids_of(g, gpus));
        const auto& node = g.vertices[vertex];
        hosts.append(node.name);
        for (const auto& [name, value] : node.properties)
            if (ResourceSet::valid_property_name(name))
                properties[name].insert(r);
    }
    ResourceSet out;
    ResourceSetAccess::assign(out, groups.take());
    out.set_nodelist(std::move(hosts));
    for (const auto& [name, on] : properties)
        out.set_property(name, on);
    return out;
}

} // namespace model
} // namespace jobspec
