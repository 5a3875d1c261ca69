#include <jobspec/resource_set_model.hpp>
#include <jobspec/text.hpp>

#include <algorithm>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "model/host_cursor.hpp"
#include "model/hostlist_pieces.hpp"
#include "model/resource_set_access.hpp"
#include "model/resource_set_build.hpp"
#include "model/treepool.hpp"
#include "support/utf8.hpp"

namespace jobspec {

using model::bracketed;
using model::Group;

bool ResourceSet::add(const IdSet& ranks, const IdSet& cores, const IdSet& gpus) {
    if (ranks.empty())
        return true;
    const IdSet all = this->ranks();
    if (all.intersects(ranks))
        return false;
    for (auto& g : groups_) {
        if (g.cores == cores && g.gpus == gpus) {
            g.ranks = g.ranks.united(ranks);
            return true;
        }
    }
    groups_.push_back(Group{ranks, cores, gpus});
    std::sort(groups_.begin(), groups_.end(),
              [](const Group& x, const Group& y) { return x.ranks.first() < y.ranks.first(); });
    return true;
}

IdSet ResourceSet::ranks() const {
    return model::union_of_ranks(groups_);
}

std::uint64_t ResourceSet::count_ranks() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count();
    return n;
}

std::uint64_t ResourceSet::count_cores() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count() * g.cores.count();
    return n;
}

std::uint64_t ResourceSet::count_gpus() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count() * g.gpus.count();
    return n;
}

bool ResourceSet::set_nodelist(Hostlist hosts) {
    if (hosts.count() != count_ranks())
        return false;
    nodelist_ = std::move(hosts);
    return true;
}

IdSet ResourceSet::ranks_of(const Hostlist& hosts) const {
    // The asked-for hosts as pieces sorted by key; the nodelist then streams past them,
    // each of its pieces looked up without allocating.
    struct Wanted {
        std::string prefix, suffix;
        std::uint8_t width;
        bool numbered;
        std::uint64_t first, last;
    };
    const auto key = [](std::string_view prefix, std::string_view suffix, std::uint8_t width,
                        bool numbered) { return std::make_tuple(prefix, suffix, width, numbered); };
    const auto key_of = [&](const Wanted& w) {
        return key(w.prefix, w.suffix, w.width, w.numbered);
    };
    std::vector<Wanted> wanted;
    model::for_each_piece(hosts, [&](const model::HostPiece& p) {
        wanted.push_back(
            {std::string(p.prefix), std::string(p.suffix), p.width, p.numbered, p.first, p.last});
    });
    // Sorted by index: moving the pieces would move their strings.
    std::vector<std::size_t> order(wanted.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return key_of(wanted[a]) < key_of(wanted[b]);
    });
    const auto below = [&](std::size_t w, const auto& k) { return key_of(wanted[w]) < k; };
    std::vector<IdSet::Range> found;
    model::for_each_piece(nodelist_, [&](const model::HostPiece& p) {
        const auto k = key(p.prefix, p.suffix, p.width, p.numbered);
        auto it = std::lower_bound(order.begin(), order.end(), k, below);
        for (; it != order.end() && key_of(wanted[*it]) == k; ++it) {
            const Wanted& w = wanted[*it];
            const std::uint64_t lo = std::max(p.first, w.first);
            const std::uint64_t hi = std::min(p.last, w.last);
            if (lo <= hi)
                found.push_back({p.position + (lo - p.first), p.position + (hi - p.first)});
        }
    });
    std::sort(found.begin(), found.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    IdSet positions;
    for (const auto& r : found)
        positions.insert(r.first, r.last);
    // Positions -> ranks: walk the ranks in order, counting positions.
    IdSet out;
    auto want = positions.ranges().begin();
    std::uint64_t at = 0;
    const IdSet all = ranks();
    for (const auto& r : all.ranges()) {
        const std::uint64_t end = at + (r.last - r.first);
        while (want != positions.ranges().end() && want->first <= end) {
            const std::uint64_t lo = std::max(want->first, at);
            const std::uint64_t hi = std::min(want->last, end);
            out.insert(r.first + (lo - at), r.first + (hi - at));
            if (want->last > end)
                break;
            ++want;
        }
        at = end + 1;
    }
    return out;
}

bool ResourceSet::valid_property_name(std::string_view name) noexcept {
    if (name.empty() || name.find_first_of("!&'\"^`|()") != std::string_view::npos)
        return false;
    return find_invalid_utf8(name) == std::string_view::npos;
}

bool ResourceSet::set_property(std::string_view name, const IdSet& ranks) {
    if (!valid_property_name(name) || !this->ranks().includes(ranks))
        return false;
    auto it = properties_.find(name);
    if (it == properties_.end())
        properties_.emplace(std::string(name), ranks);
    else
        it->second = it->second.united(ranks);
    return true;
}

namespace {

/// The hosts of `keep` (a subset of `all`), given `hosts` for `all` in rank order.
Hostlist hosts_of(const IdSet& all, const Hostlist& hosts, const IdSet& keep) {
    Hostlist out;
    if (hosts.empty())
        return out;
    model::HostCursor cursor(hosts);
    auto k = keep.ranges().begin();
    for (const auto& r : all.ranges()) {
        std::uint64_t at = r.first;
        while (k != keep.ranges().end() && k->first <= r.last) {
            const std::uint64_t from = std::max(k->first, r.first);
            const std::uint64_t to = std::min(k->last, r.last);
            cursor.skip(from - at);
            cursor.take(to - from + 1, out);
            at = to + 1;
            if (k->last > r.last)
                break;
            ++k;
        }
        if (at <= r.last)
            cursor.skip(r.last - at + 1);
    }
    return out;
}

} // namespace

ResourceSet ResourceSet::filtered(const IdSet& keep) const {
    ResourceSet out;
    const IdSet all = ranks();
    const IdSet kept = all.intersected(keep);
    std::vector<Group> groups;
    for (const auto& g : groups_)
        groups.push_back(Group{g.ranks.intersected(kept), g.cores, g.gpus});
    ResourceSetAccess::assign(out, std::move(groups));
    out.nodelist_ = hosts_of(all, nodelist_, kept);
    for (const auto& [name, r] : properties_)
        if (IdSet p = r.intersected(kept); !p.empty())
            out.properties_.emplace(name, std::move(p));
    out.nslots = nslots;
    out.starttime = starttime;
    out.expiration = expiration;
    out.scheduling = scheduling;
    out.fluxion_graph = fluxion_graph;
    out.treepool =
        model::treepool_mapped(treepool, [&](const IdSet& r) { return r.intersected(kept); });
    return out;
}

std::string ResourceSet::summary() const {
    std::vector<const Group*> ordered;
    for (const auto& g : groups_)
        ordered.push_back(&g);
    std::sort(ordered.begin(), ordered.end(),
              [](const Group* x, const Group* y) { return x->ranks.first() < y->ranks.first(); });
    std::string out;
    for (const Group* g : ordered) {
        if (!out.empty())
            out += ' ';
        out += "rank" + bracketed(g->ranks) + "/" + model::children_text(g->cores, g->gpus);
    }
    return out;
}

} // namespace jobspec
