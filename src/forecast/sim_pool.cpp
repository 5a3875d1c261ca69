#include "forecast/sim_pool.hpp"

#include <algorithm>

#include "support/numbers.hpp"

namespace jobspec::forecasting {

namespace {

using support::saturating_product;

/// The first `n` ids of `s` (or the last `n`, from the top).
IdSet some_ids(const IdSet& s, std::uint64_t n, bool from_top) {
    IdSet out;
    if (!from_top) {
        for (const auto& r : s.ranges()) {
            if (n == 0)
                break;
            const std::uint64_t take = std::min(n, r.last - r.first + 1);
            out.insert(r.first, r.first + take - 1);
            n -= take;
        }
        return out;
    }
    const auto& ranges = s.ranges();
    for (auto r = ranges.rbegin(); r != ranges.rend() && n > 0; ++r) {
        const std::uint64_t take = std::min(n, r->last - r->first + 1);
        out.insert(r->last - take + 1, r->last);
        n -= take;
    }
    return out;
}

bool stepped(const SchedulerRequest& q) {
    return (q.nodes && q.nodes->stepped) || q.slots.stepped;
}

} // namespace

IdSet Holding::ranks(const SimPool& pool) const {
    IdSet out;
    for (const auto& p : parts)
        out.insert(pool.rank(p.index));
    return out;
}

SimPool::SimPool(const ResourceSet& all, const IdSet& down) {
    for (const auto& g : all.groups())
        for (const auto& range : g.ranks.ranges())
            for (std::uint64_t r = range.first;; ++r) {
                Rank rank;
                rank.rank = r;
                rank.cores = rank.free_cores = g.cores;
                rank.gpus = rank.free_gpus = g.gpus;
                rank.ncores = g.cores.count();
                rank.ngpus = g.gpus.count();
                rank.up = !down.contains(r);
                ranks_.push_back(std::move(rank));
                if (r == range.last)
                    break;
            }
    std::sort(ranks_.begin(), ranks_.end(),
              [](const Rank& a, const Rank& b) { return a.rank < b.rank; });
}

std::uint64_t SimPool::up_ranks() const noexcept {
    return static_cast<std::uint64_t>(
        std::count_if(ranks_.begin(), ranks_.end(), [](const Rank& r) { return r.up; }));
}

std::optional<std::size_t> SimPool::index_of(std::uint64_t rank) const {
    const auto it = std::lower_bound(ranks_.begin(), ranks_.end(), rank,
                                     [](const Rank& a, std::uint64_t r) { return a.rank < r; });
    if (it == ranks_.end() || it->rank != rank)
        return std::nullopt;
    return static_cast<std::size_t>(it - ranks_.begin());
}

std::optional<Holding> SimPool::allocate(const SchedulerRequest& q, NodeOrder order,
                                         match::StepBudget* budget) const {
    if (!q.unreadable.empty() || stepped(q))
        return std::nullopt;
    // The candidates: up, with what one slot needs free (a whole node when exclusive),
    // allowed by the constraints.
    struct Candidate {
        std::size_t index;
        std::uint64_t cores;
        std::uint64_t gpus;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        match::spend(budget);
        const Rank& r = ranks_[i];
        if (!r.up)
            continue;
        const std::uint64_t cores = r.free_cores.count();
        const std::uint64_t gpus = r.free_gpus.count();
        if (cores < (q.exclusive ? r.ncores : q.slot_cores) || gpus < q.slot_gpus ||
            !q.candidates.contains(r.rank))
            continue;
        candidates.push_back({i, cores, gpus});
    }
    if (order == NodeOrder::most_free)
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate& a, const Candidate& b) {
                             return a.cores != b.cores ? a.cores > b.cores : a.gpus > b.gpus;
                         });
    else
        std::reverse(candidates.begin(), candidates.end());
    const bool top = order == NodeOrder::highest_first;
    Holding out;
    if (q.nodes) {
        const std::uint64_t per_node = q.slots.min;
        for (const auto& c : candidates) {
            if (q.nodes->max && out.parts.size() >= *q.nodes->max)
                break;
            const Rank& r = ranks_[c.index];
            if (q.exclusive) {
                if (c.cores < r.ncores)
                    continue;
                out.parts.push_back({c.index, r.free_cores, r.free_gpus});
                continue;
            }
            const std::uint64_t need_cores = saturating_product(per_node, q.slot_cores);
            const std::uint64_t need_gpus = saturating_product(per_node, q.slot_gpus);
            if (c.cores < need_cores || c.gpus < need_gpus)
                continue;
            out.parts.push_back({c.index, some_ids(r.free_cores, need_cores, top),
                                 some_ids(r.free_gpus, need_gpus, top)});
        }
        if (out.parts.size() < q.nodes->min)
            return std::nullopt;
        return out;
    }
    std::uint64_t slots = 0;
    for (const auto& c : candidates) {
        if (q.slots.max && slots >= *q.slots.max)
            break;
        std::uint64_t free_slots = c.cores / q.slot_cores;
        if (q.slot_gpus > 0)
            free_slots = std::min(free_slots, c.gpus / q.slot_gpus);
        const std::uint64_t take =
            q.slots.max ? std::min(free_slots, *q.slots.max - slots) : free_slots;
        if (take == 0)
            continue;
        const Rank& r = ranks_[c.index];
        out.parts.push_back({c.index, some_ids(r.free_cores, take * q.slot_cores, top),
                             some_ids(r.free_gpus, take * q.slot_gpus, top)});
        slots += take;
    }
    if (slots < q.slots.min)
        return std::nullopt;
    return out;
}

bool SimPool::feasible(const SchedulerRequest& q) const {
    if (!q.unreadable.empty() || stepped(q))
        return false;
    std::uint64_t eligible = 0;
    std::uint64_t slots = 0;
    std::uint64_t gpu_slots = 0;
    const std::uint64_t per_node = q.nodes ? q.slots.min : 0;
    for (const Rank& r : ranks_) {
        if (!q.candidates.contains(r.rank))
            continue;
        if (q.exclusive) {
            eligible += r.ncores >= q.slot_cores && (q.slot_gpus == 0 || r.ngpus >= q.slot_gpus);
        } else if (q.nodes) {
            eligible += r.ncores >= saturating_product(per_node, q.slot_cores) &&
                        r.ngpus >= saturating_product(per_node, q.slot_gpus);
        } else {
            const std::uint64_t here = r.ncores / q.slot_cores;
            slots += here;
            if (q.slot_gpus > 0)
                gpu_slots += std::min(here, r.ngpus / q.slot_gpus);
        }
    }
    if (q.exclusive)
        return eligible >= std::max<std::uint64_t>(q.least_nodes(), 1);
    if (q.nodes)
        return eligible >= q.nodes->min;
    return slots >= q.slots.min && (q.slot_gpus == 0 || gpu_slots >= q.slots.min);
}

bool SimPool::fits_up(const SchedulerRequest& q, NodeOrder order) const {
    SimPool empty = *this;
    for (Rank& r : empty.ranks_) {
        r.free_cores = r.cores;
        r.free_gpus = r.gpus;
    }
    return empty.allocate(q, order).has_value();
}

void SimPool::take(const Holding& h) {
    for (const auto& p : h.parts) {
        Rank& r = ranks_[p.index];
        r.free_cores = r.free_cores.without(p.cores);
        r.free_gpus = r.free_gpus.without(p.gpus);
    }
}

void SimPool::give_back(const Holding& h) {
    for (const auto& p : h.parts) {
        Rank& r = ranks_[p.index];
        r.free_cores = r.free_cores.united(p.cores).intersected(r.cores);
        r.free_gpus = r.free_gpus.united(p.gpus).intersected(r.gpus);
    }
}

ResourceSet SimPool::resources(const Holding& h) const {
    ResourceSet out;
    for (const auto& p : h.parts)
        out.add(IdSet::range(ranks_[p.index].rank, ranks_[p.index].rank), p.cores, p.gpus);
    return out;
}

Holding SimPool::holding_of(const ResourceSet& r) const {
    Holding out;
    for (const auto& g : r.groups())
        for (const std::uint64_t rank : g.ranks)
            if (const auto i = index_of(rank))
                out.parts.push_back({*i, g.cores.intersected(ranks_[*i].cores),
                                     g.gpus.intersected(ranks_[*i].gpus)});
    return out;
}

std::uint64_t SimPool::not_held_whole(const IdSet& ranks,
                                      const std::vector<const Holding*>& busy) const {
    std::vector<bool> whole(ranks_.size(), false);
    for (const Holding* h : busy)
        for (const auto& p : h->parts)
            if (p.cores.count() == ranks_[p.index].ncores && p.gpus.count() == ranks_[p.index].ngpus)
                whole[p.index] = true;
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < ranks_.size(); ++i)
        n += !whole[i] && ranks.contains(ranks_[i].rank);
    return n;
}

SimPool SimPool::with_only_free(const std::vector<const Holding*>& busy) const {
    SimPool out = *this;
    for (Rank& r : out.ranks_) {
        r.free_cores = r.cores;
        r.free_gpus = r.gpus;
    }
    for (const Holding* h : busy)
        out.take(*h);
    return out;
}

} // namespace jobspec::forecasting
