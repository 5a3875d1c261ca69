// The scheduler run forward in time: its passes, at each moment a job ends, over the
// pending jobs in its order, every job running to its time limit (docs/SCHEDULERS.md).
// Resumable: advance() does a bounded amount of work and says whether it is done.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <jobspec/forecast_model.hpp>

#include "forecast/scheduler_request.hpp"
#include "forecast/sim_pool.hpp"
#include "support/bit_row.hpp"

namespace jobspec::forecasting {

/// A pending job as the simulation schedules it.
struct SimJob {
    std::uint64_t id = 0;
    std::int64_t priority = 0;
    double t_submit = 0;
    std::string queue;
    SchedulerRequest request;
    /// Whether the scheduler considers it at all: in SCHED, not held, its queue started.
    bool considered = false;
    /// A job waiting for dependencies that the forecast can see met: each (job id, at its
    /// start: after-start; else at its end: after-finish). It joins the line once all are.
    std::vector<std::pair<std::uint64_t, bool>> released_by;
};

/// A job holding resources when the forecast starts.
struct SimRunning {
    std::uint64_t id = 0;
    Holding holding;
    std::optional<double> end;
};

/// Everything the simulation starts from.
struct SimInput {
    double now = 0;
    /// The instance's expiration (0: none): the end of a job without a time limit.
    double expiration = 0;
    SchedulerSetup setup;
    SimPool pool;
    std::vector<SimRunning> running;
    std::vector<SimJob> jobs;
    /// Fluxion's passes all planned anew, none taken from the pass before: the same
    /// forecast, slower; what the plans kept are checked against.
    bool replan = false;
};

/// What happened to one pending job in the simulation.
struct SimOutcome {
    /// When it started, and on what.
    std::optional<double> start;
    std::optional<double> end;
    /// How much later than `start` and `end` the instance meets them: the latency of the
    /// passes that led to its start (flux-core's schedulers; docs/SCHEDULERS.md).
    double delay = 0;
    Holding holding;
    /// The scheduler refused it when it came to it (infeasible, unreadable).
    bool denied = false;
    /// The jobs whose end came at the moment it started (what it waited for); when
    /// refused, the jobs without a time limit holding the nodes it allows, if that is why.
    std::vector<std::uint64_t> after;
    /// Fluxion: the start its reservation had when the forecast made one (its
    /// sched.t_estimate), else nothing.
    std::optional<double> reserved_at;
};

class Simulation {
public:
    explicit Simulation(SimInput input);

    /// Runs until the simulation ends or about `steps` of work are done (a step is a rank
    /// looked at); true when it has ended.
    bool advance(std::uint64_t steps);
    bool done() const noexcept { return done_; }

    const SimInput& input() const noexcept { return in_; }
    /// Per job of the input, in its order.
    const std::vector<SimOutcome>& outcomes() const noexcept { return out_; }
    /// What is free at the forecast's start (before any job starts).
    const SimPool& pool_at_start() const noexcept { return start_pool_; }
    /// The jobs the scheduler considers at the forecast's start, in its order (of one
    /// Fluxion queue, or all).
    std::vector<std::size_t> first_line(const std::string* queue) const {
        return line(queue, true);
    }
    /// How the allocator takes nodes.
    NodeOrder order() const noexcept;
    /// The jobs still running when the simulation ended (they have no time limit).
    std::vector<std::uint64_t> unending() const;
    /// Their holdings.
    std::vector<const Holding*> unending_holdings() const;

private:
    /// How long the instance takes to hear of a job's end (or a released job's arrival)
    /// and run the scheduler's pass, in seconds: 12-56 ms, most near 30, measured in
    /// flux-core 0.88 instances (docs/SCHEDULERS.md).
    static constexpr double pass_latency = 0.03;
    /// A moment of the simulation: a time, and how many passes, each caused by the one
    /// before, led to it. Times are reported as they are; moments are ordered as the
    /// instance meets them, each pass a pass_latency later than what caused it.
    struct Moment {
        double time = 0;
        std::uint32_t passes = 0;
        double met() const noexcept { return time + passes * pass_latency; }
        bool before(const Moment& other) const noexcept { return met() < other.met(); }
    };
    struct Active {
        std::uint64_t id;
        Holding holding;
        std::optional<double> end;
        /// The passes that led to its start: it ends as late after `end` as it started.
        std::uint32_t passes = 0;
        /// The pass that started it (0: running at the forecast).
        std::uint64_t started_in = 0;
        Moment end_moment() const noexcept { return {end.value_or(0), passes}; }
    };
    /// A Fluxion reservation: the job, where and when.
    struct Reservation {
        std::size_t job;
        std::string queue;
        Holding holding;
        double start;
        std::optional<double> end;
        /// A bit per rank of the pool where it holds cores; whether it holds GPUs of a
        /// rank without its cores.
        support::BitRow cores_on{0};
        bool gpus_alone = false;
    };
    /// The reservation of `holding` for `job` through [start, end).
    Reservation reservation(std::size_t job, Holding holding, double start,
                            std::optional<double> end) const;

    /// The pending jobs the scheduler considers (still pending, or all), in its order (of
    /// `queue` for Fluxion).
    std::vector<std::size_t> line(const std::string* queue, bool all = false) const;
    /// The pass starts at the first pending job of the line (of `queue` for Fluxion).
    void start_line(const std::string* queue);
    /// The pending job of the pass's line at or after pass_at_, or nothing at its end.
    std::optional<std::size_t> next_in_line();
    void set_pending(std::size_t job, bool pending);
    /// The time limit of the shortest pending job that has one.
    std::optional<double> shortest_pending();
    std::optional<double> end_of(const SimJob& job, double start) const;
    /// `foreseen`: it starts where and when the queue's last plan reserved it.
    void start_job(std::size_t job, Holding holding, bool foreseen = false);
    void deny(std::size_t job);
    /// Whether the scheduler can ever place the job (SimPool::feasible), found once.
    bool feasible(std::size_t job);
    /// Job `id` started (or ended): the jobs waiting for that arrive, to join the line
    /// after this pass.
    void released(std::uint64_t id, bool started);
    /// The jobs that arrived join the line; false when none did.
    bool admit_arrived();
    /// One unit of work of the pass at now_; false when the pass is over.
    bool pass_step(match::StepBudget& budget);
    bool fifo_step(match::StepBudget& budget);
    bool backfill_step(match::StepBudget& budget);
    bool fluxion_step(match::StepBudget& budget);
    /// The job of a Fluxion queue's pass, as its last pass planned it, when nothing that
    /// pass did not foresee happened since: started where its reservation was, if that is
    /// now, or reserved or left without a time again. False when the plan does not cover
    /// the job: it is then planned anew, and so is every job after it.
    bool replay(std::size_t job);
    /// The pass stops following its last plan.
    void leave_last_plan();
    /// The earliest time the head can start as running jobs end, or nothing.
    std::optional<Moment> shadow_time(const SchedulerRequest& head, match::StepBudget& budget);
    /// An allocation of `q` from what is free through [start, end) given running jobs and
    /// reservations (Fluxion's planner view), or nothing. in_.pool must be what is free at
    /// `start`: at now_, where every running job holds what it has until its end is met;
    /// later, as reserve() makes it. The pool is changed for the allocation only.
    std::optional<Holding> allocate_in(double start, std::optional<double> end,
                                       const SchedulerRequest& q, match::StepBudget& budget);
    std::optional<Reservation> reserve(std::size_t job, match::StepBudget& budget);
    /// For whole nodes (`q.nodes`, exclusive) in Fluxion's order: the highest ranks
    /// `eligible` with no holding counted in `held`, up to the request's most; an empty
    /// holding when fewer than its least. The allocation the pool would make with those
    /// holdings taken, when none of them holds GPUs without cores.
    Holding highest_unheld(const std::vector<std::uint32_t>& held,
                           const std::vector<char>& eligible, const SchedulerRequest& q,
                           match::StepBudget& budget) const;
    /// The running jobs' holding (add) or giving back (not add) `holding`, counted in
    /// held_by_active_ and gpus_alone_active_.
    void count_active(const Holding& holding, bool add);
    /// A byte per rank of the pool: up and among `candidates` (kept for the next call).
    const std::vector<char>& eligible_ranks(const IdSet& candidates);
    /// Moves time to the next end; false when nothing is left to end.
    bool next_event();

    SimInput in_;
    SimPool start_pool_;
    std::vector<SimOutcome> out_;
    std::vector<bool> pending_;
    std::vector<signed char> feasible_; // -1 not known yet
    std::size_t pending_count_ = 0;
    /// Every job the scheduler considers, in its order; the first that may be pending.
    std::vector<std::size_t> order_;
    std::size_t first_pending_ = 0;
    /// Each job's place in order_; the jobs waiting for dependencies, and how many each
    /// still waits for.
    std::vector<std::size_t> place_;
    /// A bit per place in order_: its job is pending.
    support::BitRow in_line_;
    /// The jobs of order_ with a time limit, the shortest first; each one's place there,
    /// and the first that may be pending.
    std::vector<std::size_t> by_duration_;
    std::vector<std::size_t> duration_place_;
    std::size_t shortest_ = 0;
    std::vector<std::size_t> unmet_;
    std::size_t unreleased_ = 0;
    /// For each job waited for, the jobs waiting for its start (true) or end (false).
    std::unordered_map<std::uint64_t, std::vector<std::pair<std::size_t, bool>>> waiters_;
    /// Jobs released while a pass ran: the scheduler hears of them after it.
    std::vector<std::size_t> arrived_;
    /// The pass in progress asks for another at the same moment (Fluxion's fcfs, after a
    /// refusal).
    bool pass_again_ = false;
    std::vector<Active> active_;
    /// Under Fluxion (for reserve()): per rank of the pool, how many running jobs hold
    /// cores of it; how many hold GPUs of a rank without its cores.
    std::vector<std::uint32_t> held_by_active_;
    std::size_t gpus_alone_active_ = 0;
    IdSet eligible_for_;
    std::vector<char> eligible_;
    /// reserve()'s: the running jobs with an end, by their ends (to be sorted again when
    /// stale), and its count per rank of what is held.
    std::vector<std::pair<double, const Active*>> ending_;
    bool ending_stale_ = true;
    std::vector<std::uint32_t> held_scratch_;
    std::vector<Reservation> reservations_;
    double now_ = 0;
    /// The passes that led to the pass at now_, and that pass's number.
    std::uint32_t now_passes_ = 0;
    std::uint64_t pass_number_ = 1;
    /// The pass that started the last job whose end sets the head's shadow time.
    std::uint64_t shadow_started_in_ = 0;
    std::vector<std::uint64_t> ended_now_;
    bool done_ = false;

    // The pass in progress.
    bool in_pass_ = false;
    const std::string* pass_queue_ = nullptr;
    std::size_t pass_at_ = 0;
    std::uint64_t looked_ = 0;
    int pass_phase_ = 0;
    std::optional<Moment> shadow_;
    /// The last head whose shadow time was found, and that time.
    std::optional<std::size_t> shadow_head_;
    std::optional<Moment> shadow_of_head_;
    std::vector<std::string> fluxion_queue_names_;
    std::size_t fluxion_queue_ = 0;
    std::uint64_t counted_ = 0;
    std::uint64_t reserved_ = 0;

    // Fluxion's plans. Each pass of a queue makes its reservations again, from the running
    // jobs, the other queues' reservations and its own made before in the pass. Where none
    // of those changed but as planned (jobs ending at their ends, jobs starting as
    // reserved), the pass makes what the last one made, so it is taken from it.
    /// Events no plan foresaw: a job started other than as reserved, a reservation made
    /// anew or dropped, a job without a time limit started. Jobs joining a line are seen
    /// by replay(): a plan is followed only while the line's jobs are the plan's.
    std::uint64_t unforeseen_ = 0;
    /// Per queue (fluxion_queue_names_), the jobs its last pass reserved (true) or found
    /// no time for, in its order, and unforeseen_ when that pass ended.
    struct QueuePlan {
        std::vector<std::pair<std::size_t, bool>> jobs;
        std::uint64_t as_of = std::numeric_limits<std::uint64_t>::max();
    };
    std::vector<QueuePlan> plans_;
    /// The pass in progress: the last plan's jobs, how far they are taken, and the
    /// reservations it made, in the same order; whether it is still followed.
    std::vector<std::pair<std::size_t, bool>> last_plan_;
    std::size_t last_plan_at_ = 0;
    std::vector<Reservation> last_reserved_;
    std::size_t last_reserved_at_ = 0;
    bool replaying_ = false;
};

} // namespace jobspec::forecasting
