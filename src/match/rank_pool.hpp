// The free cores and GPUs of each rank, as runs of ranks with the same free ones.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <jobspec/idset.hpp>
#include <jobspec/resource_set_model.hpp>

namespace jobspec::match {

/// What a placement may still use, rank by rank, kept as runs so a homogeneous cluster
/// of any size costs a few of them.
class RankPool {
public:
    /// Consecutive ranks with the same free cores and GPUs. The sets are shared, not
    /// copied: most runs are R's groups as they are.
    struct Run {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::shared_ptr<const IdSet> cores;
        std::shared_ptr<const IdSet> gpus;
        /// Whether every core and GPU the ranks have in R is free (an exclusive node).
        bool whole = true;
        std::uint64_t size() const noexcept { return last - first + 1; }
    };

    /// Resources taken from ranks first..last (within one run): each gives these.
    struct Take {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        IdSet cores;
        IdSet gpus;
    };

    /// The ranks of `r` in `ranks`, everything free. `r` must outlive the pool.
    RankPool(const ResourceSet& r, const IdSet& ranks);
    /// The ranks of `r` in `ranks` with only what `free` has of them free; ranks with
    /// nothing free are left out. `r` must outlive the pool.
    RankPool(const ResourceSet& r, const ResourceSet& free, const IdSet& ranks);

    const std::vector<Run>& runs() const noexcept { return runs_; }
    std::uint64_t count_ranks() const noexcept;

    /// Takes what the takes name; they are disjoint and each within one run.
    void take(std::vector<Take> takes);

private:
    std::vector<Run> runs_;
};

} // namespace jobspec::match
