// Each pending job's forecast from the simulation: its verdict, when it starts and where,
// and what it waits for (docs/SCHEDULERS.md, "Verdicts").
#pragma once

#include <optional>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/forecast_model.hpp>

#include "forecast/simulation.hpp"

namespace jobspec::forecasting {

/// What jobspec's own matcher says of a job on all of R, when it was asked (the jobs the
/// simulation does not start): nothing when it fits, else its diagnostics
/// (jobspec.unsatisfiable, match.budget, match.unsupported, ...).
using MatcherVerdicts = std::vector<std::optional<Diagnostics>>;

/// The forecast of every pending job of `state`, whose simulation `sim` has ended
/// (state.pending and sim's jobs are in the same order); `matcher` per job as above.
std::vector<JobForecast> judge(const InstanceState& state, const Simulation& sim,
                               const MatcherVerdicts& matcher);

} // namespace jobspec::forecasting
