// RankPool: runs of ranks from R's groups, split as resources are taken.
#include "match/rank_pool.hpp"

#include <algorithm>

namespace jobspec::match {

namespace {

struct Piece {
    std::uint64_t first, last;
    const ResourceSet::Group* group;
};

/// The ranks of `r` in `ranks` as pieces of one group each, in rank order: every group's
/// ranges sorted, then cut to `ranks` in one sweep (no set is built per group).
std::vector<Piece> pieces(const ResourceSet& r, const IdSet& ranks) {
    std::vector<Piece> all;
    for (const auto& g : r.groups())
        for (const auto& range : g.ranks.ranges())
            all.push_back({range.first, range.last, &g});
    std::sort(all.begin(), all.end(),
              [](const Piece& a, const Piece& b) { return a.first < b.first; });
    std::vector<Piece> out;
    auto want = ranks.ranges().begin();
    const auto end = ranks.ranges().end();
    for (const auto& p : all) {
        while (want != end && want->last < p.first)
            ++want;
        for (auto w = want; w != end && w->first <= p.last; ++w)
            out.push_back({std::max(p.first, w->first), std::min(p.last, w->last), p.group});
    }
    return out;
}

/// A set that something else owns for as long as the pool lives.
std::shared_ptr<const IdSet> borrowed(const IdSet& s, const std::shared_ptr<const void>& owner) {
    return std::shared_ptr<const IdSet>(owner, &s);
}

} // namespace

RankPool::RankPool(const ResourceSet& r, const IdSet& ranks) {
    for (const auto& p : pieces(r, ranks))
        runs_.push_back(
            {p.first, p.last, borrowed(p.group->cores, {}), borrowed(p.group->gpus, {}), true});
}

RankPool::RankPool(const ResourceSet& r, const ResourceSet& free, const IdSet& ranks) {
    const auto both = std::make_shared<const ResourceSet>(r.intersected(free));
    const auto all = pieces(r, ranks);
    std::size_t at = 0;
    for (const auto& p : pieces(*both, ranks)) {
        // Split the free piece where R's groups change, to tell whole ranks.
        for (std::uint64_t first = p.first; first <= p.last;) {
            while (all[at].last < first)
                ++at;
            const Piece& whole = all[at];
            const std::uint64_t last = std::min(p.last, whole.last);
            runs_.push_back(
                {first, last, borrowed(p.group->cores, both), borrowed(p.group->gpus, both),
                 p.group->cores == whole.group->cores && p.group->gpus == whole.group->gpus});
            if (last == p.last)
                break;
            first = last + 1;
        }
    }
}

std::uint64_t RankPool::count_ranks() const noexcept {
    std::uint64_t n = 0;
    for (const auto& run : runs_)
        n += run.size();
    return n;
}

void RankPool::take(std::vector<Take> takes) {
    std::sort(takes.begin(), takes.end(),
              [](const Take& a, const Take& b) { return a.first < b.first; });
    std::vector<Run> out;
    out.reserve(runs_.size() + 2 * takes.size());
    auto t = takes.begin();
    for (auto& run : runs_) {
        std::uint64_t from = run.first;
        for (; t != takes.end() && t->first <= run.last; ++t) {
            if (t->first > from)
                out.push_back({from, t->first - 1, run.cores, run.gpus, run.whole});
            Run rest{t->first, t->last, std::make_shared<const IdSet>(run.cores->without(t->cores)),
                     std::make_shared<const IdSet>(run.gpus->without(t->gpus)), false};
            if (!rest.cores->empty() || !rest.gpus->empty())
                out.push_back(std::move(rest));
            from = t->last + 1;
        }
        if (from <= run.last) {
            run.first = from;
            out.push_back(std::move(run));
        }
    }
    runs_ = std::move(out);
}

} // namespace jobspec::match
