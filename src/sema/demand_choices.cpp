// The ways of meeting a request: sums, repeats and alternatives, kept to the least.
#include "sema/demand_choices.hpp"

#include <algorithm>

#include "support/numbers.hpp"

namespace jobspec::sema {

using support::saturating_product;
using support::saturating_sum;

void DemandChoices::keep_least(std::vector<Demand> all, const Demand& most) {
    std::sort(all.begin(), all.end(), [](const Demand& a, const Demand& b) {
        return a.gpus != b.gpus ? a.gpus < b.gpus : a.cores < b.cores;
    });
    ways_.clear();
    for (const Demand& d : all) {
        if (d.cores > most.cores || d.gpus > most.gpus)
            continue;
        // More gpus than every way before it: kept only with fewer cores than all of them.
        if (ways_.empty() || d.cores < ways_.back().cores)
            ways_.push_back(d);
    }
}

DemandChoices DemandChoices::plus(const DemandChoices& other, const Demand& most) const {
    std::vector<Demand> all;
    all.reserve(ways_.size() * other.ways_.size());
    for (const Demand& a : ways_)
        for (const Demand& b : other.ways_)
            all.push_back({saturating_sum(a.cores, b.cores), saturating_sum(a.gpus, b.gpus)});
    DemandChoices out;
    out.keep_least(std::move(all), most);
    return out;
}

DemandChoices DemandChoices::times(std::uint64_t n, const Demand& most) const {
    if (single()) {
        DemandChoices out;
        out.keep_least(
            {{saturating_product(n, ways_[0].cores), saturating_product(n, ways_[0].gpus)}}, most);
        return out;
    }
    // By doubling: a count of a million costs twenty sums, each of a few ways.
    DemandChoices out, base = *this;
    while (n > 0 && !out.empty()) {
        if (n & 1U)
            out = out.plus(base, most);
        n >>= 1U;
        if (n > 0)
            base = base.plus(base, most);
    }
    return out;
}

DemandChoices DemandChoices::either(const DemandChoices& other) const {
    std::vector<Demand> all = ways_;
    all.insert(all.end(), other.ways_.begin(), other.ways_.end());
    DemandChoices out;
    out.keep_least(std::move(all), {UINT64_MAX, UINT64_MAX});
    return out;
}

const Demand* DemandChoices::fitting(std::uint64_t cores, std::uint64_t gpus) const noexcept {
    for (const Demand& d : ways_)
        if (d.cores <= cores && d.gpus <= gpus)
            return &d;
    return nullptr;
}

std::vector<Demand> instances_held(const DemandChoices& one, std::uint64_t cores,
                                   std::uint64_t gpus, std::uint64_t most) {
    std::vector<Demand> held;
    if (one.fitting(0, 0) != nullptr)
        return held;
    const Demand room{cores, gpus};
    DemandChoices taken = one.plus(DemandChoices{}, room);
    while (!taken.empty() && held.size() < most) {
        held.push_back(taken.ways().front());
        taken = taken.plus(one, room);
    }
    return held;
}

} // namespace jobspec::sema
