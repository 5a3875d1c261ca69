// How much work one placement may do, so that its cost is bounded whatever the jobspec.
#pragma once

#include <cstdint>

namespace jobspec::match {

/// A count of steps, each a small and bounded piece of a placement: a run of ranks tried,
/// a vertex of a graph looked at, one turn of the node assignment's flow. Spending past
/// the limit throws Spent, which the match door turns into match.budget.
class StepBudget {
public:
    struct Spent {};

    explicit StepBudget(std::uint64_t limit) noexcept : limit_(limit) {}

    void spend(std::uint64_t steps = 1) {
        used_ += steps;
        if (used_ > limit_)
            throw Spent{};
    }
    std::uint64_t used() const noexcept { return used_; }
    std::uint64_t limit() const noexcept { return limit_; }

private:
    std::uint64_t limit_;
    std::uint64_t used_ = 0;
};

/// Spends from `budget`, when there is one (null: no limit).
inline void spend(StepBudget* budget, std::uint64_t steps = 1) {
    if (budget != nullptr)
        budget->spend(steps);
}

} // namespace jobspec::match
