// Each pending job's forecast from the simulation: its verdict, when it starts and where,
// and what it waits for (docs/SCHEDULERS.md, "Verdicts").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/forecast_model.hpp>

#include "forecast/simulation.hpp"

namespace jobspec::forecasting {

/// What jobspec's own matcher says of a job on all of R: nothing when it fits, else its
/// diagnostics (jobspec.unsatisfiable, match.budget, match.unsupported, ...).
using MatcherVerdicts = std::vector<std::optional<Diagnostics>>;

/// Asks jobspec's matcher of job j (as above, into `verdict`); returns the steps it took.
using Explainer = std::function<std::uint64_t(std::size_t j, std::optional<Diagnostics>& verdict)>;

class Judge;

/// The forecast of every pending job of `state`, whose simulation `sim` has ended
/// (state.pending and sim's jobs are in the same order; both outlive this), made one job at
/// a time. A step costs a few allocations' looks at R's ranks, and an explanation when the
/// job's verdict needs one (a job refused, or the first of a line that never starts): a
/// job behind another is not explained.
class Judging {
public:
    Judging(const InstanceState& state, const Simulation& sim, Explainer explain);
    ~Judging();
    /// Judges the next job; false once every job is judged.
    bool step();
    /// Every job's forecast, once step() has returned false.
    std::vector<JobForecast> take();
    /// The steps the explanations have taken so far.
    std::uint64_t explaining_steps() const noexcept;

private:
    std::unique_ptr<Judge> judge_;
};

} // namespace jobspec::forecasting
