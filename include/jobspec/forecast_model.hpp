// A Flux instance as its scheduler sees it at one moment, and the forecast of its pending
// jobs: when each starts, where, and what it waits for (docs/SCHEDULERS.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>

namespace jobspec {

/// The state of a pending job (RFC 21): waiting for its dependencies, for a priority, or
/// for the scheduler.
enum class PendingState : std::uint8_t { depend, priority, sched };

/// A job waiting to run, as the job manager holds it.
struct PendingJob {
    std::uint64_t id = 0;
    PendingState state = PendingState::sched;
    /// 0 is held (urgency 0, or a priority plugin's hold); the scheduler never sees it.
    std::int64_t priority = 16;
    std::uint32_t urgency = 16;
    /// Seconds since the epoch.
    double t_submit = 0;
    /// The queue it was submitted to ("" for none: the anonymous or default queue).
    std::string queue;
    /// Its unmet dependencies, as job-list names them ("after:ƒ2ZDpfw2").
    std::vector<std::string> dependencies;
    /// Its jobspec, read once; null when it could not be read (then `problem` says why).
    std::shared_ptr<const Jobspec> jobspec;
    Diagnostics problem;
};

/// A job holding resources: what it holds and when it ends.
struct RunningJob {
    std::uint64_t id = 0;
    /// Its allocation (ranks with their cores and GPUs).
    ResourceSet r;
    /// Its expiration, seconds since the epoch; nothing when it has no time limit.
    std::optional<double> end;
};

/// A queue's status (RFC 33): stopped queues' jobs are not scheduled.
struct QueueStatus {
    std::string name;
    bool started = true;
    std::string stop_reason;
};

/// The schedulers whose order and rules are known (docs/SCHEDULERS.md).
enum class SchedulerKind : std::uint8_t {
    /// flux-core's sched-simple and sched-fifo: strict priority FIFO.
    fifo,
    /// flux-core's sched-backfill: EASY backfill.
    backfill,
    /// Fluxion's qmanager, whose queues each have a policy.
    fluxion,
    /// Another scheduler: verdicts are given, never an order or a time.
    unknown,
};

/// Fluxion's queue policies (its `queue-policy`).
enum class FluxionPolicy : std::uint8_t { fcfs, easy, hybrid, conservative };

/// One of Fluxion's queues as qmanager runs it.
struct FluxionQueue {
    FluxionPolicy policy = FluxionPolicy::fcfs;
    /// How many jobs one pass considers.
    std::uint64_t queue_depth = 32;
    /// How many jobs of a pass may hold a reservation (easy: 1).
    std::uint64_t reservation_depth = 0;
};

/// Which scheduler decides, and how it is set up.
struct SchedulerSetup {
    SchedulerKind kind = SchedulerKind::fifo;
    /// The module's name as loaded ("sched-simple", "sched-fluxion-qmanager").
    std::string name = "sched-simple";
    /// flux-core's schedulers: how many jobs the job manager hands the scheduler at once
    /// (0: unlimited).
    std::uint64_t queue_depth = 8;
    /// Fluxion: each queue's setup by name ("default" when no queue is configured).
    std::map<std::string, FluxionQueue, std::less<>> fluxion_queues;
};

/// What an instance's scheduler sees at one moment: every input of a forecast.
struct InstanceState {
    /// Seconds since the epoch at which the state was read.
    double now = 0;
    /// R, all of it.
    ResourceSet all;
    /// The ranks that are down, drained or excluded: never allocated.
    IdSet down;
    /// Why a rank is down, when it is drained (rank -> the drain reason, "" if none given);
    /// a rank down and not drained is offline.
    std::map<std::uint64_t, std::string> drained;
    /// The instance's own expiration (R's), 0 for none: when a job without a time limit
    /// ends.
    double expiration = 0;
    std::vector<RunningJob> running;
    std::vector<PendingJob> pending;
    /// Each queue's status; a queue not listed is started.
    std::vector<QueueStatus> queues;
    /// The instance's configuration (for its queues' requires and hosts), as one JSON
    /// file's text; empty when it has no queues.
    std::string config_json;
    SchedulerSetup scheduler;
};

/// What a forecast says of one pending job.
enum class Verdict : std::uint8_t {
    /// Urgency 0 or priority 0, or waiting for a priority.
    held,
    /// An unmet dependency, or its queue is stopped.
    blocked,
    /// The scheduler's next pass starts it.
    next,
    /// It starts later: when running jobs end, or after the jobs ahead of it.
    waiting,
    /// It needs nodes that are down or drained, or waits behind a job that does.
    down,
    /// It can never run on this instance.
    never,
    /// jobspec cannot judge it (its placement over budget, or something R cannot say).
    unknown,
};

/// Why a job has no estimated start.
enum class NoEstimate : std::uint8_t {
    /// It has one.
    none,
    /// Held, or blocked by a dependency or a stopped queue.
    not_scheduled,
    /// It needs down or drained nodes (down_needed).
    down,
    /// The running jobs it waits for have no time limit (after).
    unending,
    /// It waits behind a job that has none (waits_behind), for that job's reason.
    behind,
    /// It can never run here.
    never,
    /// The scheduler's order is not known, or the job not judged.
    unknown,
};

/// One pending job's forecast.
struct JobForecast {
    std::uint64_t id = 0;
    Verdict verdict = Verdict::unknown;
    /// When it is estimated to start (seconds since the epoch), or nothing, and why not.
    std::optional<double> start;
    /// When it would end (its start and duration), or nothing (no start, or no limit).
    std::optional<double> end;
    NoEstimate no_estimate = NoEstimate::none;
    /// The job ahead of it in the scheduler's order that it waits behind: the head of the
    /// line under FIFO (or the reserved job under backfill) while it could start now; the
    /// first job ahead that never starts, when it does not start either.
    std::vector<std::uint64_t> waits_behind;
    /// The jobs whose end lets it start (running, or started by the forecast first); when
    /// it has no estimate for NoEstimate::unending, those holding its nodes for ever; when
    /// the scheduler refuses it for that (Fluxion, constraints), those jobs.
    std::vector<std::uint64_t> after;
    /// The ranks it would start on (empty when it does not start).
    IdSet nodes;
    /// The down or drained ranks it needs, or that the job it waits behind needs.
    IdSet down_needed;
    /// Whether the scheduler keeps it in line though it can never run (every job behind
    /// it then waits), rather than refusing it.
    bool kept = false;
    /// jobspec's explanation, for never and unknown.
    Diagnostics diagnostics;
};

/// The forecast of every pending job, in the order the instance listed them.
struct Forecast {
    /// The moment forecast from (InstanceState::now).
    double now = 0;
    /// "" when the scheduler's order is known; else why there is no order or estimate
    /// ("sched-foo: order unknown").
    std::string order_unknown;
    std::vector<JobForecast> jobs;
};

} // namespace jobspec
