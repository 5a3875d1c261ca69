// What one node or one placed instance needs, in cores and gpus, and the choices
// Fluxion's or-slots give it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace jobspec::match {

/// Cores and GPUs that one node or one placed group needs.
struct Demand {
    std::uint64_t cores = 0;
    std::uint64_t gpus = 0;

    /// Whether `room` holds it.
    bool within(const Demand& room) const noexcept {
        return cores <= room.cores && gpus <= room.gpus;
    }
    /// `n` of it; sums saturate.
    Demand times(std::uint64_t n) const noexcept;
    friend Demand operator+(const Demand& a, const Demand& b) noexcept;
    /// What is left of `room` after `d`, which must be within it.
    friend Demand operator-(const Demand& room, const Demand& d) noexcept {
        return {room.cores - d.cores, room.gpus - d.gpus};
    }
    friend bool operator==(const Demand&, const Demand&) = default;
};

/// The ways of meeting a request with cores and GPUs, none of which needs at least as
/// much of both as another: one way for a request without or-slots, several when it may
/// take one shape or another. Ways that need more than `most` (the most any node has)
/// are dropped as they are made, so the number of ways stays below the node's gpus
/// (or cores) however large the counts: an empty set is a request no node can hold.
class DemandChoices {
public:
    /// The one way `d`.
    explicit DemandChoices(Demand d = {}) : ways_{d} {}

    /// Ways, fewest gpus first (then fewest cores).
    const std::vector<Demand>& ways() const noexcept { return ways_; }
    bool empty() const noexcept { return ways_.empty(); }
    bool single() const noexcept { return ways_.size() == 1; }

    /// Both: every way of this beside every way of `other`.
    DemandChoices plus(const DemandChoices& other, const Demand& most) const;
    /// `n` of this side by side, each instance any of its ways.
    DemandChoices times(std::uint64_t n, const Demand& most) const;
    /// This or `other`.
    DemandChoices either(const DemandChoices& other) const;
    /// The first way that `cores` and `gpus` hold, or null.
    const Demand* fitting(std::uint64_t cores, std::uint64_t gpus) const noexcept;

private:
    void keep_least(std::vector<Demand> all, const Demand& most);
    std::vector<Demand> ways_;
};

/// What `n` instances take within `room` when each is one of `shapes`, chosen as
/// Fluxion's or-slot search chooses (choose_or_slots): each instance in turn the earliest
/// shape after which the rest still fit. Nothing when no mix fits.
std::optional<Demand> earliest_mix(const std::vector<Demand>& shapes, std::uint64_t n,
                                   const Demand& room);

/// How many instances a node with `cores` and `gpus` holds, up to `most`, each one of
/// `shapes`: for each number of instances from 1, what that many take (earliest_mix).
/// Empty when it holds none; at most cores + gpus entries, as no shape needs nothing
/// (placement_plan refuses such a request).
std::vector<Demand> instances_held(const std::vector<Demand>& shapes, std::uint64_t cores,
                                   std::uint64_t gpus, std::uint64_t most = UINT64_MAX);

} // namespace jobspec::match
