#include "forecast/sim_pool.hpp"

#include <algorithm>

#include "support/numbers.hpp"

namespace jobspec::forecasting {

namespace {

using support::saturating_product;
using support::saturating_sum;

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

void Holding::count() {
    ncores = 0;
    for (const auto& p : parts)
        ncores += p.cores.count();
}

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
                rank.ncores = rank.nfree_cores = g.cores.count();
                rank.ngpus = rank.nfree_gpus = g.gpus.count();
                rank.up = !down.contains(r);
                if (rank.up) {
                    ++up_count_;
                    free_cores_ += rank.ncores;
                    up_cores_ += rank.ncores;
                    ++whole_free_;
                }
                ranks_.push_back(std::move(rank));
                if (r == range.last)
                    break;
            }
    std::sort(ranks_.begin(), ranks_.end(),
              [](const Rank& a, const Rank& b) { return a.rank < b.rank; });
    for (std::size_t i = 0; i < ranks_.size(); ++i)
        if (!ranks_[i].up)
            down_.push_back(i);
    uniform_ = std::all_of(ranks_.begin(), ranks_.end(), [&](const Rank& r) {
        return r.ncores == ranks_.front().ncores && r.ngpus == ranks_.front().ngpus;
    });
    wholly_free_ = support::BitRow(ranks_.size());
    for (std::size_t i = 0; i < ranks_.size(); ++i)
        mark(i);
}

void SimPool::mark(std::size_t i) {
    const Rank& r = ranks_[i];
    wholly_free_.set(i, r.up && r.nfree_cores == r.ncores && r.nfree_gpus == r.ngpus);
}

std::optional<std::size_t> SimPool::index_of(std::uint64_t rank) const {
    const auto [lo, hi] = indices({rank, rank});
    if (lo == hi)
        return std::nullopt;
    return lo;
}

std::optional<Holding> SimPool::allocate(const SchedulerRequest& q, NodeOrder order,
                                         match::StepBudget* budget) const {
    if (!q.unreadable.empty() || stepped(q))
        return std::nullopt;
    // What is free in all cannot be enough: no need to look at each rank.
    if (q.exclusive ? whole_free_ < q.least_nodes()
                    : free_cores_ < saturating_product(q.least_slots(), q.slot_cores))
        return std::nullopt;
    const bool top = order == NodeOrder::highest_first;
    const bool everywhere = q.candidates.count() >= ranks_.size();
    // A candidate: up, with what one slot needs free (a whole node when exclusive), allowed
    // by the constraints.
    const auto candidate = [&](const Rank& r) {
        return r.up && r.nfree_cores >= (q.exclusive ? r.ncores : q.slot_cores) &&
               r.nfree_gpus >= q.slot_gpus && (everywhere || q.candidates.contains(r.rank));
    };
    // Takes what it can of the candidates `next` gives, in turn, up to the request's most;
    // whether it reached that most.
    std::uint64_t slots = 0; // the slots taken, for a request of slots
    const auto take = [&](auto&& next, Holding& out) {
        const std::uint64_t per_node = q.slots.min;
        slots = 0;
        while (const Rank* found = next()) {
            const Rank& r = *found;
            const auto index = static_cast<std::size_t>(&r - ranks_.data());
            if (q.nodes) {
                if (q.nodes->max && out.parts.size() >= *q.nodes->max)
                    return true;
                if (q.exclusive) {
                    if (r.nfree_cores == r.ncores)
                        out.parts.push_back({index, r.free_cores, r.free_gpus});
                    continue;
                }
                const std::uint64_t need_cores = saturating_product(per_node, q.slot_cores);
                const std::uint64_t need_gpus = saturating_product(per_node, q.slot_gpus);
                if (r.nfree_cores >= need_cores && r.nfree_gpus >= need_gpus)
                    out.parts.push_back({index, some_ids(r.free_cores, need_cores, top),
                                         some_ids(r.free_gpus, need_gpus, top)});
                continue;
            }
            if (q.slots.max && slots >= *q.slots.max)
                return true;
            std::uint64_t free_slots = r.nfree_cores / q.slot_cores;
            if (q.slot_gpus > 0)
                free_slots = std::min(free_slots, r.nfree_gpus / q.slot_gpus);
            const std::uint64_t n =
                q.slots.max ? std::min(free_slots, *q.slots.max - slots) : free_slots;
            if (n == 0)
                continue;
            out.parts.push_back({index, some_ids(r.free_cores, n * q.slot_cores, top),
                                 some_ids(r.free_gpus, n * q.slot_gpus, top)});
            slots += n;
        }
        return q.nodes ? q.nodes->max && out.parts.size() >= *q.nodes->max
                       : q.slots.max && slots >= *q.slots.max;
    };
    const auto enough = [&](Holding& out) -> std::optional<Holding> {
        if (q.nodes ? out.parts.size() < q.nodes->min : slots < q.slots.min)
            return std::nullopt;
        out.count();
        return std::move(out);
    };
    // Candidates in an order known without looking at them all: Fluxion's from the highest
    // rank; flux-core's (the most free cores, then GPUs, then rank order) on ranks that are
    // all alike, where the wholly free come first, in rank order. Most allocations take a
    // few of many, and stop there.
    const bool bounded = q.nodes ? q.nodes->max.has_value() : q.slots.max.has_value();
    if (top && q.exclusive && q.nodes && whole_free_ == wholly_free_.count())
        return allocate_whole_avoiding(q, {}, budget);
    if (top && q.exclusive && whole_free_ == wholly_free_.count()) {
        // Whole nodes, and every rank with its cores free wholly free: only those.
        std::size_t at = wholly_free_.prev(ranks_.size());
        const auto wholly_free = [&]() -> const Rank* {
            for (; at < ranks_.size(); at = wholly_free_.prev(at)) {
                match::spend(budget);
                if (candidate(ranks_[at])) {
                    const Rank* r = &ranks_[at];
                    at = wholly_free_.prev(at);
                    return r;
                }
            }
            return nullptr;
        };
        Holding out;
        take(wholly_free, out);
        return enough(out);
    }
    if (top) {
        // The ranks the constraints allow, from the highest: those of each range of
        // candidates, the ranges from the last.
        const auto& allowed = q.candidates.ranges();
        auto range = allowed.rbegin();
        std::size_t at = ranks_.size(); // one past the next rank to look at
        std::size_t stop = 0;           // the lowest index of the range being walked
        const auto next_range = [&] {
            for (; range != allowed.rend(); ++range) {
                const auto [lo, hi] = indices(*range);
                if (lo != hi) {
                    ++range;
                    stop = lo;
                    at = hi;
                    return true;
                }
            }
            return false;
        };
        bool walking = everywhere || next_range();
        const auto in_turn = [&]() -> const Rank* {
            while (walking) {
                for (; at > stop; --at) {
                    match::spend(budget);
                    const Rank& r = ranks_[at - 1];
                    if (candidate(r)) {
                        --at;
                        return &r;
                    }
                }
                walking = !everywhere && next_range();
            }
            return nullptr;
        };
        Holding out;
        take(in_turn, out);
        return enough(out);
    }
    if (uniform_ && bounded) {
        std::size_t at = wholly_free_.next(0);
        const auto wholly_free = [&]() -> const Rank* {
            for (; at < ranks_.size(); at = wholly_free_.next(at + 1)) {
                match::spend(budget);
                if (candidate(ranks_[at])) {
                    const Rank* r = &ranks_[at];
                    at = wholly_free_.next(at + 1);
                    return r;
                }
            }
            return nullptr;
        };
        Holding out;
        if (take(wholly_free, out))
            return enough(out);
        // Whole nodes: the only candidates left are ranks with every core free but not
        // every GPU; with none, the heap would find no more.
        if (q.exclusive && whole_free_ == wholly_free_.count())
            return enough(out);
    }
    // flux-core's order, over every candidate: a heap, taken from one at a time.
    std::vector<const Rank*> candidates;
    for (const Rank& r : ranks_) {
        match::spend(budget);
        if (candidate(r))
            candidates.push_back(&r);
    }
    const auto later = [](const Rank* a, const Rank* b) {
        return a->nfree_cores != b->nfree_cores ? a->nfree_cores < b->nfree_cores
               : a->nfree_gpus != b->nfree_gpus ? a->nfree_gpus < b->nfree_gpus
                                                : a > b;
    };
    std::make_heap(candidates.begin(), candidates.end(), later);
    auto end = candidates.end();
    const auto from_heap = [&]() -> const Rank* {
        if (end == candidates.begin())
            return nullptr;
        std::pop_heap(candidates.begin(), end, later);
        --end;
        return *end;
    };
    Holding out;
    take(from_heap, out);
    return enough(out);
}

std::optional<Holding> SimPool::allocate_whole_avoiding(
    const SchedulerRequest& q, const std::vector<const support::BitRow*>& avoid,
    match::StepBudget* budget) const {
    if (!q.unreadable.empty() || stepped(q) || whole_free_ < q.least_nodes())
        return std::nullopt;
    const bool everywhere = q.candidates.count() >= ranks_.size();
    const std::uint64_t most = q.nodes->max.value_or(UINT64_MAX);
    std::vector<std::size_t> taken;
    for (std::size_t at = wholly_free_.prev(ranks_.size()); at < ranks_.size() && taken.size() < most;
         at = wholly_free_.prev(at)) {
        match::spend(budget);
        if (std::any_of(avoid.begin(), avoid.end(),
                        [at](const support::BitRow* row) { return row->test(at); }))
            continue;
        const Rank& r = ranks_[at];
        if (r.nfree_gpus >= q.slot_gpus && (everywhere || q.candidates.contains(r.rank)))
            taken.push_back(at);
    }
    if (taken.size() < q.nodes->min)
        return std::nullopt;
    return whole_ranks(taken);
}

bool SimPool::feasible(const SchedulerRequest& q) const {
    return fits_empty(q, false);
}

bool SimPool::fits_up(const SchedulerRequest& q) const {
    return fits_empty(q, true);
}

bool SimPool::fits_empty(const SchedulerRequest& q, bool up_only) const {
    if (!q.unreadable.empty() || stepped(q))
        return false;
    std::uint64_t eligible = 0;
    std::uint64_t slots = 0;
    std::uint64_t gpu_slots = 0;
    const std::uint64_t per_node = q.nodes ? q.slots.min : 0;
    const bool everywhere = q.candidates.count() >= ranks_.size();
    // What `times` ranks like `r` add.
    const auto add = [&](const Rank& r, std::uint64_t times) {
        if (q.exclusive) {
            eligible += times * (r.ncores >= q.slot_cores &&
                                 (q.slot_gpus == 0 || r.ngpus >= q.slot_gpus));
        } else if (q.nodes) {
            eligible += times * (r.ncores >= saturating_product(per_node, q.slot_cores) &&
                                 r.ngpus >= saturating_product(per_node, q.slot_gpus));
        } else {
            const std::uint64_t here = r.ncores / q.slot_cores;
            slots = saturating_sum(slots, saturating_product(here, times));
            if (q.slot_gpus > 0)
                gpu_slots = saturating_sum(
                    gpu_slots, saturating_product(std::min(here, r.ngpus / q.slot_gpus), times));
        }
    };
    if (everywhere && uniform_ && !ranks_.empty()) { // ranks all alike: one stands for all
        add(ranks_.front(), up_only ? up_ranks() : ranks_.size());
    } else if (uniform_ && !ranks_.empty()) { // the same, for as many as the constraints allow
        add(ranks_.front(), among(q.candidates, up_only));
    } else {
        for (const Rank& r : ranks_)
            if ((!up_only || r.up) && (everywhere || q.candidates.contains(r.rank)))
                add(r, 1);
    }
    if (q.exclusive)
        return eligible >= std::max<std::uint64_t>(q.least_nodes(), 1);
    if (q.nodes)
        return eligible >= q.nodes->min;
    return slots >= q.slots.min && (q.slot_gpus == 0 || gpu_slots >= q.slots.min);
}

namespace {

/// `free` less `held`; taking all that is free (a whole node, mostly) makes no new set.
void take_ids(IdSet& free, const IdSet& held) {
    if (held.empty())
        return;
    if (held.includes(free))
        free = IdSet{};
    else
        free = free.without(held);
}

/// `free` with `held` given back, within `all`; nothing free before (a whole node, mostly)
/// is a copy.
void give_ids(IdSet& free, const IdSet& held, const IdSet& all) {
    if (held.empty())
        return;
    if (free.empty())
        free = all.includes(held) ? held : held.intersected(all);
    else
        free = free.united(held).intersected(all);
}

} // namespace

void SimPool::take(const Holding& h) {
    for (const auto& p : h.parts) {
        Rank& r = ranks_[p.index];
        forget_free(r);
        take_ids(r.free_cores, p.cores);
        take_ids(r.free_gpus, p.gpus);
        count_free(r);
    }
}

void SimPool::give_back(const Holding& h) {
    for (const auto& p : h.parts) {
        Rank& r = ranks_[p.index];
        forget_free(r);
        give_ids(r.free_cores, p.cores, r.cores);
        give_ids(r.free_gpus, p.gpus, r.gpus);
        count_free(r);
    }
}

void SimPool::forget_free(const Rank& r) {
    if (!r.up)
        return;
    free_cores_ -= r.nfree_cores;
    whole_free_ -= r.nfree_cores == r.ncores;
}

void SimPool::count_free(Rank& r) {
    r.nfree_cores = r.free_cores.count();
    r.nfree_gpus = r.free_gpus.count();
    mark(static_cast<std::size_t>(&r - ranks_.data()));
    if (!r.up)
        return;
    free_cores_ += r.nfree_cores;
    whole_free_ += r.nfree_cores == r.ncores;
}

Holding SimPool::whole_ranks(const std::vector<std::size_t>& indices) const {
    Holding out;
    out.parts.reserve(indices.size());
    for (const std::size_t i : indices)
        out.parts.push_back({i, ranks_[i].cores, ranks_[i].gpus});
    out.count();
    return out;
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
    out.count();
    return out;
}

std::pair<std::size_t, std::size_t> SimPool::indices(const IdSet::Range& range) const {
    const auto lo = std::lower_bound(ranks_.begin(), ranks_.end(), range.first,
                                     [](const Rank& a, std::uint64_t r) { return a.rank < r; });
    const auto hi = std::upper_bound(lo, ranks_.end(), range.last,
                                     [](std::uint64_t r, const Rank& a) { return r < a.rank; });
    return {static_cast<std::size_t>(lo - ranks_.begin()),
            static_cast<std::size_t>(hi - ranks_.begin())};
}

std::uint64_t SimPool::among(const IdSet& ranks, bool up_only) const {
    std::uint64_t n = 0;
    for (const auto& range : ranks.ranges()) {
        const auto [lo, hi] = indices(range);
        n += hi - lo;
    }
    if (up_only)
        for (const std::size_t i : down_)
            n -= ranks.contains(ranks_[i].rank);
    return n;
}

std::uint64_t SimPool::not_held_whole(const IdSet& ranks,
                                      const std::vector<const Holding*>& busy) const {
    const std::uint64_t n = among(ranks, false);
    std::vector<std::size_t> whole;
    for (const Holding* h : busy)
        for (const auto& p : h->parts)
            if (p.cores.count() == ranks_[p.index].ncores &&
                p.gpus.count() == ranks_[p.index].ngpus && ranks.contains(ranks_[p.index].rank))
                whole.push_back(p.index);
    std::sort(whole.begin(), whole.end());
    return n - static_cast<std::uint64_t>(std::unique(whole.begin(), whole.end()) - whole.begin());
}

Holding SimPool::withhold(const Holding& h) {
    Holding out;
    for (const auto& p : h.parts) {
        const Rank& r = ranks_[p.index];
        Holding::Part part{p.index, r.free_cores.intersected(p.cores),
                           r.free_gpus.intersected(p.gpus)};
        if (!part.cores.empty() || !part.gpus.empty())
            out.parts.push_back(std::move(part));
    }
    take(out);
    out.count();
    return out;
}

} // namespace jobspec::forecasting
