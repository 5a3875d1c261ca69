// "When will job ƒX start?": an instance's scheduler run forward in time, by its own order
// and rules, over every pending job (docs/SCHEDULERS.md). One implementation, for
// `jobspec forecast`, `flux jobspec why` and the jobtap plugin.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/forecast_model.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// jobspec's matcher's verdicts on pending jobs, on all of R, by job id: what explaining
/// each took once, kept from one forecast to the next of the same R and configuration so
/// that no job is explained (or found over its budget) twice. Shared by a caller and its
/// forecasts; safe to use from several threads.
class JOBSPEC_API Explanations {
public:
    /// A job's verdict when known: its diagnostics (no error when it fits all of R).
    std::optional<Diagnostics> find(std::uint64_t id) const;
    void keep(std::uint64_t id, Diagnostics verdict);
    /// Drops a job's verdict (it left, or its jobspec changed).
    void forget(std::uint64_t id);
    /// Drops every verdict (R or the configuration changed).
    void clear();
    std::size_t size() const;

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, Diagnostics> verdicts_;
};

/// How a forecast is made.
struct ForecastOptions {
    /// The most steps jobspec's matcher may take to explain one job that does not start
    /// (MatchOptions::max_steps); none for no limit. A job over it is `unknown`.
    std::optional<std::uint64_t> max_steps;
    /// Verdicts already found on the same R and configuration, and where the verdicts this
    /// forecast finds are kept (null: every job not started is explained afresh).
    std::shared_ptr<Explanations> explained;
};

/// Which scheduler a module is, set up as its arguments say: "sched-simple" and
/// "sched-fifo" (FIFO; queue-depth=N|unlimited, mode=limited=N|unlimited; default 8),
/// "sched-backfill" (EASY; default unlimited), "sched-fluxion-qmanager" (`fluxion`: the
/// answer of its `params` request, or null for its defaults: every queue fcfs, depth 32).
/// Another module is SchedulerKind::unknown. Arguments it does not know are ignored.
JOBSPEC_API SchedulerSetup scheduler_setup(std::string_view module,
                                           const std::vector<std::string>& args = {},
                                           const boost::json::value* fluxion = nullptr);

/// Reads an instance's state from JSON (docs/FORMATS.md, "An instance's state"): what
/// resource.sched-status, resource.status, config.get, the queues' statuses and job-list
/// say, each pending job's jobspec (read once, by `read`'s rules; one that cannot be read
/// is kept with its problem) and each running job's R. Errors (forecast.instance, with a
/// JSON pointer) for what is not of the format. With `r`, the state's R is `r` (its "R"
/// may then be left out).
JOBSPEC_API Result<InstanceState> read_instance_state(std::string_view text,
                                                      const ReadOptions& read = {},
                                                      const ResourceSet* r = nullptr);
/// The same, from a JSON value.
JOBSPEC_API Result<InstanceState> instance_state_from_json(const boost::json::value& value,
                                                           const ReadOptions& read = {});

/// A forecast made a bounded amount at a time, as a job manager must: each advance() does
/// about `steps` of work (a step is a rank looked at; see docs/PERFORMANCE.md) and says
/// whether the forecast is done. Explaining one job is not divided: an advance() starts
/// one only when it fits what is left of `steps`, or as its first piece of work, so a call
/// spends at most max(steps, one explanation: ForecastOptions::max_steps).
class JOBSPEC_API ForecastRun {
public:
    ForecastRun(std::shared_ptr<const InstanceState> state, ForecastOptions options = {});
    ~ForecastRun();
    ForecastRun(ForecastRun&&) noexcept;
    ForecastRun& operator=(ForecastRun&&) noexcept;

    /// Works on it for about `steps`; true once it is done.
    bool advance(std::uint64_t steps);
    bool done() const noexcept;
    /// The forecast, once done (before: an empty one).
    const Forecast& result() const noexcept;
    const InstanceState& state() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// A job's dependencies as flux-core 0.88's builtin dependency plugins name them in its
/// dependency-add events, which job-list lists and PendingJob::dependencies holds:
/// "after-start=ID" (after:ID, afterstart:ID), "after-finish=ID" (afterany),
/// "after-success=ID" (afterok), "after-failure=ID" (afternotok), "after-except=ID"
/// (afterexcept), ID as written; "begin-time=T" (T with three decimals); "singleton";
/// another scheme, "SCHEME=VALUE". What a job in DEPEND waits for when no event says.
JOBSPEC_API std::vector<std::string> dependency_descriptions(const Jobspec& jobspec);

/// The forecast of every pending job of `state`, made at once.
JOBSPEC_API Forecast forecast(const InstanceState& state, const ForecastOptions& options = {});

} // namespace jobspec
