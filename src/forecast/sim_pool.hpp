// An instance's resources rank by rank as a forecast allocates them: what each rank has,
// what of it is free, whether it is up; taken and given back as the simulated jobs start
// and end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <jobspec/idset.hpp>
#include <jobspec/resource_set_model.hpp>

#include "forecast/scheduler_request.hpp"
#include "match/step_budget.hpp"
#include "support/bit_row.hpp"

namespace jobspec::forecasting {

/// Which nodes an allocator takes first (docs/SCHEDULERS.md).
enum class NodeOrder : std::uint8_t {
    /// flux-core's: the most free cores first, then the most free GPUs, then rank order;
    /// the lowest free cores and GPUs of a node.
    most_free,
    /// Fluxion's "first" policy: the highest rank first; the highest free cores and GPUs.
    highest_first,
};

/// What one job holds: per rank (its index in the pool), cores and GPUs.
struct Holding {
    struct Part {
        std::size_t index = 0;
        IdSet cores;
        IdSet gpus;
    };
    std::vector<Part> parts;
    /// How many cores the parts hold.
    std::uint64_t ncores = 0;

    /// Counts ncores from the parts.
    void count();
    /// The ranks held (of the pool's R).
    IdSet ranks(const class SimPool& pool) const;
};

class SimPool {
public:
    /// All of R's ranks, those in `down` never used, everything free.
    SimPool(const ResourceSet& all, const IdSet& down);

    std::size_t size() const noexcept { return ranks_.size(); }
    /// How many ranks are up.
    std::uint64_t up_ranks() const noexcept { return up_count_; }
    std::uint64_t rank(std::size_t index) const noexcept { return ranks_[index].rank; }
    bool up(std::size_t index) const noexcept { return ranks_[index].up; }
    std::uint64_t gpus(std::size_t index) const noexcept { return ranks_[index].ngpus; }
    /// Whether the rank is up with every core free; how many are.
    bool cores_free(std::size_t index) const noexcept {
        return ranks_[index].up && ranks_[index].nfree_cores == ranks_[index].ncores;
    }
    std::uint64_t ranks_with_cores_free() const noexcept { return whole_free_; }
    /// The index of `rank`, or nothing when R does not have it.
    std::optional<std::size_t> index_of(std::uint64_t rank) const;
    /// The indices [first, second) of the ranks in `range`.
    std::pair<std::size_t, std::size_t> indices(const IdSet::Range& range) const;

    /// flux-core's allocation of `request` from what is free now, nodes taken in `order`;
    /// nothing when there is not enough now. Takes nothing.
    std::optional<Holding> allocate(const SchedulerRequest& request, NodeOrder order,
                                    match::StepBudget* budget = nullptr) const;
    /// Whether every rank that is up with every core free has every GPU free too.
    bool wholly_free_alike() const noexcept { return whole_free_ == wholly_free_.count(); }
    /// allocate() of whole nodes (`request.nodes`, exclusive) in Fluxion's order, with the
    /// ranks set in any of `avoid` left out, where wholly_free_alike(): the wholly free
    /// ranks from the highest.
    std::optional<Holding> allocate_whole_avoiding(const SchedulerRequest& request,
                                                   const std::vector<const support::BitRow*>& avoid,
                                                   match::StepBudget* budget = nullptr) const;
    /// flux-core's feasibility: whether the request fits R's ranks its constraints allow,
    /// each as if empty, down ones included (a stepped count never does).
    bool feasible(const SchedulerRequest& request) const;
    /// Whether the request fits the ranks that are up, each as if empty (what allocate
    /// would find with everything up free).
    bool fits_up(const SchedulerRequest& request) const;

    void take(const Holding& h);
    void give_back(const Holding& h);
    /// The ranks at `indices` whole, every core and GPU (what an allocation of whole nodes
    /// takes of ranks wholly free).
    Holding whole_ranks(const std::vector<std::size_t>& indices) const;
    /// `h` as resources of R (ranks with their cores and GPUs).
    ResourceSet resources(const Holding& h) const;
    /// The holding of `r`'s resources that this pool has.
    Holding holding_of(const ResourceSet& r) const;

    /// How many of `ranks` no holding of `busy` holds whole.
    std::uint64_t not_held_whole(const IdSet& ranks,
                                 const std::vector<const Holding*>& busy) const;

    /// Takes what of `h` is free, and returns it (give_back puts exactly that back): a
    /// holding that may overlap others, withheld for a moment.
    Holding withhold(const Holding& h);
    /// The cores of the ranks that are up; how many of them are free.
    std::uint64_t up_cores() const noexcept { return up_cores_; }
    std::uint64_t free_cores() const noexcept { return free_cores_; }

private:
    struct Rank {
        std::uint64_t rank = 0;
        IdSet cores;
        IdSet gpus;
        IdSet free_cores;
        IdSet free_gpus;
        std::uint64_t ncores = 0;
        std::uint64_t ngpus = 0;
        /// free_cores.count() and free_gpus.count(), kept.
        std::uint64_t nfree_cores = 0;
        std::uint64_t nfree_gpus = 0;
        bool up = true;
    };

    bool fits_empty(const SchedulerRequest& request, bool up_only) const;
    /// How many of the pool's ranks (that are up) are in `ranks`.
    std::uint64_t among(const IdSet& ranks, bool up_only) const;
    /// The totals' share of `r`, before its free resources change and after.
    void forget_free(const Rank& r);
    void count_free(Rank& r);
    /// Keeps rank i's bit of wholly_free_.
    void mark(std::size_t i);

    std::vector<Rank> ranks_;
    /// The indices of the ranks that are down.
    std::vector<std::size_t> down_;
    /// Over the ranks that are up: the free cores, and the ranks with every core free.
    std::uint64_t free_cores_ = 0;
    std::uint64_t whole_free_ = 0;
    std::uint64_t up_cores_ = 0;
    std::uint64_t up_count_ = 0;
    /// Every rank has as many cores and GPUs as every other.
    bool uniform_ = true;
    /// A bit per rank: up, with every core and GPU free.
    support::BitRow wholly_free_;
};

} // namespace jobspec::forecasting
