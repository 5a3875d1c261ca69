// A forecast written for people (one line per job, and the short reason `flux jobs`
// shows) and for tools (JSON): the one writer of each, for `jobspec forecast`,
// `flux jobspec why` and the jobtap plugin alike.
#pragma once

#include <cstddef>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/forecast_model.hpp>

namespace jobspec {

/// How a forecast is written.
struct ForecastTextOptions {
    /// Job ids in F58 with an ASCII "f" rather than "ƒ" (flux-core's FLUX_F58_FORCE_ASCII,
    /// or a locale that is not UTF-8).
    bool ascii_ids = false;
    /// Times as UTC rather than the local time zone.
    bool utc = false;
};

/// One line for people, safe for a terminal (every name from the instance escaped):
///   starts by 14:05:07 (estimated, on node[2-3], after ƒA ends)
///   waits behind ƒC, which waits for drained fake0: no estimate until it is undrained
///   never on this instance: jobspec.unsatisfiable at /resources/0: asks 5 nodes ...
/// `job` is one of forecast.jobs of `state`'s forecast.
JOBSPEC_API std::string forecast_summary(const JobForecast& job, const InstanceState& state,
                                         const ForecastTextOptions& options = {});

/// The forecast as `jobspec forecast` prints it: "(why its order is unknown)" first when
/// it is, then a line per job, its id and its summary.
JOBSPEC_API std::string forecast_lines(const Forecast& forecast, const InstanceState& state,
                                       const ForecastTextOptions& options = {});

/// The most bytes forecast_reason writes: an annotation is one short line of `flux jobs`.
inline constexpr std::size_t forecast_reason_bytes = 120;

/// The short reason `flux jobs` shows for a pending job (annotations.user.jobspec_reason),
/// at most forecast_reason_bytes bytes: "starts by 14:05:07 on node[2-3]", "waits behind
/// ƒC (drained fake0)", "never: CODE at POINTER: message"; "" for a held job (flux jobs
/// says it is held) and for one that starts now.
JOBSPEC_API std::string forecast_reason(const JobForecast& job, const InstanceState& state,
                                        const ForecastTextOptions& options = {});

/// The forecast as JSON: {"now", "scheduler", "order_unknown"?, "jobs": [...]}, each job
/// {"id" (F58), "queue", "verdict", "summary", "eta" (seconds since the epoch, or null),
/// "no_estimate" (why none: "down", "unending", "behind", "never", "unknown",
/// "not-scheduled"; absent with an estimate), "waits_behind" and "after" (F58 ids),
/// "nodes" (hostlist), "down_nodes" ({host: "drained: reason" | "down"}), "kept",
/// "diagnostics"} (docs/FORMATS.md).
JOBSPEC_API boost::json::value forecast_to_json(const Forecast& forecast,
                                                const InstanceState& state,
                                                const ForecastTextOptions& options = {});

/// One job of forecast_to_json's "jobs": `job` is one of forecast.jobs of `state`'s
/// forecast.
JOBSPEC_API boost::json::value job_forecast_to_json(const JobForecast& job,
                                                    const InstanceState& state,
                                                    const ForecastTextOptions& options = {});

/// forecast_to_json without its "jobs": {"now", "scheduler", "order_unknown"?}.
JOBSPEC_API boost::json::object forecast_head_to_json(const Forecast& forecast,
                                                      const InstanceState& state);

/// The schedule as a picture (SVG): a row per node, time to the right from the forecast's
/// moment; the running jobs and each pending job where and when the forecast starts it,
/// labelled with their ids, and the down and drained nodes marked. At most 256 nodes are
/// drawn (those jobs use first), and the picture says how many more there are.
JOBSPEC_API std::string forecast_svg(const Forecast& forecast, const InstanceState& state,
                                     const ForecastTextOptions& options = {});

/// An instance's state as JSON, in the format read_instance_state reads (docs/FORMATS.md):
/// reading what this writes gives the same state.
JOBSPEC_API boost::json::value instance_state_to_json(const InstanceState& state);

/// The name of a verdict as the JSON writes it ("held", "blocked", "next", "waiting",
/// "down", "never", "unknown").
JOBSPEC_API std::string_view verdict_name(Verdict verdict) noexcept;

} // namespace jobspec
