// The ways of meeting a request: sums, repeats and alternatives, kept to the least.
#include "match/demand_choices.hpp"

#include <algorithm>

#include "match/or_slot_choice.hpp"
#include "support/numbers.hpp"

namespace jobspec::match {

using support::saturating_product;
using support::saturating_sum;

Demand Demand::times(std::uint64_t n) const noexcept {
    return {saturating_product(n, cores), saturating_product(n, gpus)};
}

Demand operator+(const Demand& a, const Demand& b) noexcept {
    return {saturating_sum(a.cores, b.cores), saturating_sum(a.gpus, b.gpus)};
}

void DemandChoices::keep_least(std::vector<Demand> all, const Demand& most) {
    std::sort(all.begin(), all.end(), [](const Demand& a, const Demand& b) {
        return a.gpus != b.gpus ? a.gpus < b.gpus : a.cores < b.cores;
    });
    ways_.clear();
    for (const Demand& d : all) {
        if (!d.within(most))
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
            all.push_back(a + b);
    DemandChoices out;
    out.keep_least(std::move(all), most);
    return out;
}

DemandChoices DemandChoices::times(std::uint64_t n, const Demand& most) const {
    if (single()) {
        DemandChoices out;
        out.keep_least({ways_[0].times(n)}, most);
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
        if (d.within({cores, gpus}))
            return &d;
    return nullptr;
}

namespace {

/// Any one of the shapes, as ways.
DemandChoices any_of(const std::vector<Demand>& shapes) {
    DemandChoices any(shapes.front());
    for (std::size_t i = 1; i < shapes.size(); ++i)
        any = any.either(DemandChoices(shapes[i]));
    return any;
}

/// earliest_mix, with `any` made once for many calls.
std::optional<Demand> earliest_mix_of(const std::vector<Demand>& shapes,
                                      const DemandChoices& any, std::uint64_t n,
                                      const Demand& room) {
    // The first shape n times is what the choice below would make, and when it does
    // not fit, one test says whether any mix does, where the choice would try each shape.
    if (shapes.front().times(n).within(room))
        return shapes.front().times(n);
    if (any.times(n, room).empty())
        return std::nullopt;
    const auto left = choose_or_slots(
        shapes.size(), n, room,
        [&](std::size_t i, const Demand& l) {
            return shapes[i].within(l) ? std::optional(l - shapes[i]) : std::nullopt;
        },
        [&](std::uint64_t m, const Demand& l) { return !any.times(m, l).empty(); },
        [&](std::uint64_t m, const Demand& l) {
            const Demand all_first = shapes.front().times(m);
            return all_first.within(l) ? std::optional(l - all_first) : std::nullopt;
        },
        [](std::size_t, const Demand&) {});
    if (!left)
        return std::nullopt;
    return room - *left;
}

} // namespace

std::optional<Demand> earliest_mix(const std::vector<Demand>& shapes, std::uint64_t n,
                                   const Demand& room) {
    return earliest_mix_of(shapes, any_of(shapes), n, room);
}

std::vector<Demand> instances_held(const std::vector<Demand>& shapes, std::uint64_t cores,
                                   std::uint64_t gpus, std::uint64_t most) {
    std::vector<Demand> held;
    if (std::any_of(shapes.begin(), shapes.end(),
                    [](const Demand& s) { return s == Demand{}; }))
        return held;
    const DemandChoices any = any_of(shapes);
    while (held.size() < most) {
        const auto mix = earliest_mix_of(shapes, any, held.size() + 1, {cores, gpus});
        if (!mix)
            break;
        held.push_back(*mix);
    }
    return held;
}

} // namespace jobspec::match
