// Renumbering a resource set: remap (ranks and cores from 0) and rerank (ranks by host).
#include <jobspec/resource_set_model.hpp>

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "model/resource_set_access.hpp"
#include "model/resource_set_build.hpp"
#include "model/treepool.hpp"

namespace jobspec {

namespace {

/// The most ranks reranked() renumbers (one host name each in memory).
constexpr std::uint64_t max_reranked = std::uint64_t{1} << 24;

/// Copies what a renumbering keeps, TreePool's children ranks renumbered as the set's
/// (RFC 49, for a sub-instance); a rank the set does not have is dropped.
template <class Renumber>
void keep_rest(const ResourceSet& from, ResourceSet& to, const Renumber& renumber) {
    to.nslots = from.nslots;
    to.starttime = from.starttime;
    to.expiration = from.expiration;
    const IdSet all = from.ranks();
    to.scheduling = from.scheduling;
    to.fluxion_graph = from.fluxion_graph;
    to.treepool = model::treepool_mapped(
        from.treepool, [&](const IdSet& r) { return renumber(r.intersected(all)); });
}

} // namespace

ResourceSet ResourceSet::remapped() const {
    // Each range of all ranks, with the position of its first rank.
    std::vector<std::pair<IdSet::Range, std::uint64_t>> starts;
    std::uint64_t position = 0;
    for (const auto& r : ranks().ranges()) {
        starts.emplace_back(r, position);
        position += r.last - r.first + 1;
    }
    const auto renumber = [&](const IdSet& r) {
        IdSet out;
        for (const auto& range : r.ranges()) {
            const auto it =
                std::upper_bound(starts.begin(), starts.end(), range.first,
                                 [](std::uint64_t v, const auto& s) { return v < s.first.first; });
            const auto& [whole, at] = *std::prev(it);
            const std::uint64_t first = at + (range.first - whole.first);
            out.insert(first, first + (range.last - range.first));
        }
        return out;
    };
    model::Grouper grouper;
    for (const auto& g : groups_) {
        // Core ids become 0..k-1; GPU ids are kept (flux-core does not remap them either).
        const IdSet cores = g.cores.empty() ? IdSet{} : IdSet::range(0, g.cores.count() - 1);
        grouper.add(renumber(g.ranks), cores, g.gpus);
    }
    ResourceSet out;
    ResourceSetAccess::assign(out, grouper.take());
    out.nodelist_ = nodelist_;
    for (const auto& [name, r] : properties_)
        out.properties_.emplace(name, renumber(r));
    keep_rest(*this, out, renumber);
    return out;
}

Result<ResourceSet> ResourceSet::reranked(const Hostlist& hosts) const {
    const auto fail = [](std::string message) {
        Diagnostics d;
        d.add(Code::R_rerank, std::move(message));
        return Result<ResourceSet>(std::move(d));
    };
    const std::uint64_t n = count_ranks();
    if (hosts.count() != n)
        return fail(
            fmt::format("too {} hosts: the hostlist names {}, the resource set has {} ranks",
                        hosts.count() > n ? "many" : "few", hosts.count(), n));
    if (nodelist_.empty() && n > 0)
        return fail("the resource set has no nodelist to rerank by");
    if (n > max_reranked)
        return fail(fmt::format("reranking goes host by host: the resource set has {} ranks, "
                                "more than {}",
                                n, max_reranked));
    // Host -> its old rank, then each new position's host looked up in it.
    std::unordered_map<std::string, std::uint64_t> old_rank;
    old_rank.reserve(n);
    const IdSet all = ranks();
    auto rank = all.begin();
    for (auto& host : nodelist_.expand()) {
        if (!old_rank.emplace(std::move(host), *rank).second)
            return fail(fmt::format("host '{}' names two ranks of the resource set", host));
        ++rank;
    }
    std::unordered_map<std::uint64_t, std::uint64_t> new_rank;
    new_rank.reserve(n);
    std::uint64_t position = 0;
    for (const auto& host : hosts.expand()) {
        const auto it = old_rank.find(host);
        if (it == old_rank.end())
            return fail(fmt::format("host '{}' is not in the resource set", host));
        if (!new_rank.emplace(it->second, position++).second)
            return fail(fmt::format("host '{}' is in the hostlist twice", host));
    }
    const auto renumber = [&](const IdSet& r) {
        std::vector<std::uint64_t> ids;
        ids.reserve(r.count());
        for (const auto id : r)
            ids.push_back(new_rank.at(id));
        std::sort(ids.begin(), ids.end());
        IdSet out;
        for (const auto id : ids)
            out.insert(id);
        return out;
    };
    model::Grouper grouper;
    for (const auto& g : groups_)
        grouper.add(renumber(g.ranks), g.cores, g.gpus);
    ResourceSet out;
    ResourceSetAccess::assign(out, grouper.take());
    out.nodelist_ = hosts;
    for (const auto& [name, r] : properties_)
        out.properties_.emplace(name, renumber(r));
    keep_rest(*this, out, renumber);
    return out;
}

} // namespace jobspec
