#include "forecast/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <iterator>
#include <numeric>
#include <set>

#include "support/numbers.hpp"

namespace jobspec::forecasting {

namespace {

constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();

using support::saturating_product;

/// Whether [a_start, a_end) and [b_start, b_end) overlap (no end: for ever).
bool overlap(double a_start, std::optional<double> a_end, double b_start,
             std::optional<double> b_end) {
    return (!a_end || *a_end > b_start) && (!b_end || *b_end > a_start);
}

} // namespace

Simulation::Simulation(SimInput input)
    : in_(std::move(input)), start_pool_(in_.pool), out_(in_.jobs.size()),
      pending_(in_.jobs.size(), false), feasible_(in_.jobs.size(), -1), now_(in_.now) {
    held_by_active_.assign(start_pool_.size(), 0);
    for (const auto& r : in_.running) {
        start_pool_.take(r.holding);
        count_active(r.holding, true);
        // A job past its expiration is being ended: its resources come back at once.
        active_.push_back({r.id, r.holding,
                           r.end ? std::optional<double>(std::max(*r.end, now_)) : std::nullopt});
    }
    unmet_.assign(in_.jobs.size(), 0);
    for (std::size_t i = 0; i < in_.jobs.size(); ++i)
        if (in_.jobs[i].considered) {
            pending_[i] = true;
            ++pending_count_;
            order_.push_back(i);
        } else if (!in_.jobs[i].released_by.empty()) {
            unmet_[i] = in_.jobs[i].released_by.size();
            ++unreleased_;
            order_.push_back(i);
            for (const auto& [target, at_start] : in_.jobs[i].released_by)
                waiters_[target].emplace_back(i, at_start);
        }
    // The scheduler's order, which no event changes: priority, then (Fluxion) submission.
    const bool fluxion = in_.setup.kind == SchedulerKind::fluxion;
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
        const SimJob& x = in_.jobs[a];
        const SimJob& y = in_.jobs[b];
        if (x.priority != y.priority)
            return x.priority > y.priority;
        if (fluxion && x.t_submit != y.t_submit)
            return x.t_submit < y.t_submit;
        return x.id < y.id;
    });
    place_.assign(in_.jobs.size(), 0);
    in_line_ = support::BitRow(order_.size());
    for (std::size_t k = 0; k < order_.size(); ++k) {
        place_[order_[k]] = k;
        in_line_.set(k, pending_[order_[k]]);
    }
    // The jobs with a time limit, shortest first: sched-backfill's pass looks for one
    // short enough to end by the head's shadow time only when the shortest pending does.
    for (const std::size_t i : order_)
        if (in_.jobs[i].request.duration > 0)
            by_duration_.push_back(i);
    std::stable_sort(by_duration_.begin(), by_duration_.end(), [&](std::size_t a, std::size_t b) {
        return in_.jobs[a].request.duration < in_.jobs[b].request.duration;
    });
    duration_place_.assign(in_.jobs.size(), 0);
    for (std::size_t k = 0; k < by_duration_.size(); ++k)
        duration_place_[by_duration_[k]] = k;
    in_.pool = start_pool_;
    // What ended already ends now, before the first pass.
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->end && *it->end <= now_) {
            in_.pool.give_back(it->holding);
            count_active(it->holding, false);
            ended_now_.push_back(it->id);
            it = active_.erase(it);
        } else {
            ++it;
        }
    }
    for (const std::uint64_t id : ended_now_)
        released(id, false);
    if (in_.setup.kind == SchedulerKind::unknown)
        done_ = true;
    if (in_.setup.kind == SchedulerKind::fluxion) {
        std::set<std::string> names;
        for (const std::size_t i : order_)
            names.insert(in_.jobs[i].queue);
        fluxion_queue_names_.assign(names.begin(), names.end());
        plans_.resize(fluxion_queue_names_.size());
    }
}

NodeOrder Simulation::order() const noexcept {
    return in_.setup.kind == SchedulerKind::fluxion ? NodeOrder::highest_first
                                                     : NodeOrder::most_free;
}

std::vector<std::size_t> Simulation::line(const std::string* queue, bool all) const {
    std::vector<std::size_t> out;
    for (const std::size_t i : order_)
        if ((all ? in_.jobs[i].considered : pending_[i]) &&
            (queue == nullptr || in_.jobs[i].queue == *queue))
            out.push_back(i);
    return out;
}

void Simulation::set_pending(std::size_t job, bool pending) {
    pending_[job] = pending;
    in_line_.set(place_[job], pending);
    if (pending && in_.jobs[job].request.duration > 0)
        shortest_ = std::min(shortest_, duration_place_[job]);
}

std::optional<double> Simulation::shortest_pending() {
    while (shortest_ < by_duration_.size() && !pending_[by_duration_[shortest_]])
        ++shortest_;
    if (shortest_ == by_duration_.size())
        return std::nullopt;
    return in_.jobs[by_duration_[shortest_]].request.duration;
}

std::optional<std::size_t> Simulation::next_in_line() {
    while ((pass_at_ = in_line_.next(pass_at_)) < order_.size()) {
        const std::size_t j = order_[pass_at_];
        if (pass_queue_ == nullptr || in_.jobs[j].queue == *pass_queue_)
            return j;
        ++pass_at_;
    }
    return std::nullopt;
}

void Simulation::start_line(const std::string* queue) {
    first_pending_ = in_line_.next(first_pending_);
    pass_at_ = first_pending_;
    pass_queue_ = queue;
    looked_ = 0;
}

std::optional<double> Simulation::end_of(const SimJob& job, double start) const {
    // Fluxion plans in whole seconds: a job starts at the second it is matched in and
    // runs its duration rounded up, so it ends up to a second before start + duration.
    if (job.request.duration > 0 && in_.setup.kind == SchedulerKind::fluxion)
        return std::floor(start) + std::ceil(job.request.duration);
    if (job.request.duration > 0)
        return start + job.request.duration;
    if (in_.expiration > 0)
        return in_.expiration;
    return std::nullopt;
}

void Simulation::start_job(std::size_t job, Holding holding, bool foreseen) {
    in_.pool.take(holding);
    --pending_count_;
    SimOutcome& o = out_[job];
    o.start = now_;
    o.end = end_of(in_.jobs[job], now_);
    o.after = ended_now_;
    // Fluxion's ends are whole seconds of its plan, however late the job started.
    const std::uint32_t passes = in_.setup.kind == SchedulerKind::fluxion ? 0 : now_passes_;
    o.delay = passes * pass_latency;
    active_.push_back({in_.jobs[job].id, holding, o.end, passes, pass_number_});
    count_active(holding, true);
    ending_stale_ = true;
    o.holding = std::move(holding);
    // A start no plan made changes what later passes plan; so does one of a job without
    // an end, which changes what Fluxion finds held for ever.
    if (!foreseen || !o.end) {
        ++unforeseen_;
        leave_last_plan();
    }
    set_pending(job, false);
    released(in_.jobs[job].id, true);
}

void Simulation::released(std::uint64_t id, bool started) {
    const auto it = waiters_.find(id);
    if (it == waiters_.end())
        return;
    for (const auto& [j, at_start] : it->second)
        if (at_start == started && --unmet_[j] == 0) {
            arrived_.push_back(j);
            --unreleased_;
        }
}

bool Simulation::admit_arrived() {
    if (arrived_.empty())
        return false;
    for (const std::size_t j : arrived_) {
        set_pending(j, true);
        ++pending_count_;
        first_pending_ = std::min(first_pending_, place_[j]);
    }
    arrived_.clear();
    return true;
}

bool Simulation::feasible(std::size_t job) {
    if (feasible_[job] < 0)
        feasible_[job] = in_.pool.feasible(in_.jobs[job].request) ? 1 : 0;
    return feasible_[job] == 1;
}

void Simulation::deny(std::size_t job) {
    out_[job].denied = true;
    set_pending(job, false);
    --pending_count_;
    released(in_.jobs[job].id, false); // refused, it is over: after-finish is met
}

bool Simulation::advance(std::uint64_t steps) {
    match::StepBudget work(no_limit);
    while (!done_ && work.used() < steps) {
        if (!in_pass_) {
            in_pass_ = true;
            pass_phase_ = 0;
            pass_at_ = 0;
            fluxion_queue_ = 0;
            counted_ = reserved_ = 0;
            shadow_.reset();
            start_line(nullptr);
        }
        work.spend();
        if (pass_step(work))
            continue;
        in_pass_ = false;
        // A job released in the pass (or by the ends before it) reaches the scheduler
        // after it, and is considered in a pass of its own at the same moment.
        const bool arrived = admit_arrived();
        if (arrived || pass_again_) {
            pass_again_ = false;
            ++now_passes_;
            ++pass_number_;
            continue;
        }
        if ((pending_count_ == 0 && unreleased_ == 0) || !next_event())
            done_ = true;
    }
    return done_;
}

bool Simulation::pass_step(match::StepBudget& budget) {
    switch (in_.setup.kind) {
    case SchedulerKind::fifo:
        return fifo_step(budget);
    case SchedulerKind::backfill:
        return backfill_step(budget);
    case SchedulerKind::fluxion:
        return fluxion_step(budget);
    case SchedulerKind::unknown:
        break;
    }
    return false;
}

bool Simulation::fifo_step(match::StepBudget& budget) {
    const auto next = next_in_line();
    if (!next)
        return false;
    const std::size_t j = *next;
    const SchedulerRequest& q = in_.jobs[j].request;
    if (!feasible(j)) { // denied at the head; the line goes on
        deny(j);
        return true;
    }
    if (auto h = in_.pool.allocate(q, order(), &budget)) {
        start_job(j, std::move(*h));
        return true;
    }
    return false; // the head waits, and every job behind it
}

std::optional<Simulation::Moment> Simulation::shadow_time(const SchedulerRequest& head,
                                                          match::StepBudget& budget) {
    std::vector<const Active*> ending;
    for (const auto& a : active_)
        if (a.end)
            ending.push_back(&a);
    std::sort(ending.begin(), ending.end(), [](const Active* a, const Active* b) {
        return a->end_moment().before(b->end_moment());
    });
    // The running jobs' resources given back in the order they end, until the head fits;
    // then taken again, as they were.
    std::optional<Moment> shadow;
    std::size_t given = 0;
    while (given < ending.size() && !shadow) {
        const Moment t = ending[given]->end_moment();
        for (; given < ending.size() && !t.before(ending[given]->end_moment()); ++given)
            in_.pool.give_back(ending[given]->holding);
        if (in_.pool.allocate(head, order(), &budget)) {
            shadow = t.time < now_ ? Moment{now_, now_passes_} : t;
            shadow_started_in_ = 0;
            for (std::size_t i = 0; i < given; ++i)
                if (!ending[i]->end_moment().before(t))
                    shadow_started_in_ = std::max(shadow_started_in_, ending[i]->started_in);
        }
    }
    for (std::size_t i = 0; i < given; ++i)
        in_.pool.take(ending[i]->holding);
    return shadow;
}

bool Simulation::backfill_step(match::StepBudget& budget) {
    if (pass_phase_ == 0) { // the head, as long as heads start
        const auto next = next_in_line();
        if (!next)
            return false;
        const std::size_t j = *next;
        const SchedulerRequest& q = in_.jobs[j].request;
        ++pass_at_;
        ++looked_;
        if (!feasible(j)) {
            deny(j);
            return true;
        }
        if (auto h = in_.pool.allocate(q, order(), &budget)) {
            start_job(j, std::move(*h));
            return true;
        }
        // Backfilled jobs end by the shadow time and jobs end as planned: a head's shadow
        // time holds until it starts.
        if (shadow_head_ != j) {
            shadow_of_head_ = shadow_time(q, budget);
            shadow_head_ = j;
        }
        shadow_ = shadow_of_head_;
        pass_phase_ = 1;
        return true;
    }
    // The others in order, each started now when it ends by the head's shadow time.
    // Ending at the shadow time is not ending before it when the job whose end sets it
    // started in this pass: the instance's clock has moved on since. Started in another
    // pass as many passes on, either may come first; the instance has started it.
    const auto too_long = [&](double duration) {
        const Moment end{now_ + duration, now_passes_};
        return !shadow_ || duration <= 0 || shadow_->before(end) ||
               (!end.before(*shadow_) && shadow_started_in_ == pass_number_);
    };
    if (pass_phase_ == 1) { // no job is short enough: none starts (the longer end later)
        const auto shortest = shortest_pending();
        if (!shortest || too_long(*shortest))
            return false;
        pass_phase_ = 2;
    }
    const std::uint64_t depth = in_.setup.queue_depth == 0 ? no_limit : in_.setup.queue_depth;
    const auto next = next_in_line();
    if (!next || looked_ >= depth)
        return false;
    const std::size_t j = *next;
    ++pass_at_;
    ++looked_;
    const SchedulerRequest& q = in_.jobs[j].request;
    if (too_long(q.duration))
        return true;
    if (!feasible(j))
        deny(j);
    else if (auto h = in_.pool.allocate(q, order(), &budget))
        start_job(j, std::move(*h));
    return true;
}

std::optional<Holding> Simulation::allocate_in(double start, std::optional<double> end,
                                               const SchedulerRequest& q,
                                               match::StepBudget& budget) {
    std::vector<const Holding*> planned;
    std::vector<const support::BitRow*> reserved_ranks;
    bool gpus_alone = false;
    for (const auto& r : reservations_)
        if (overlap(r.start, r.end, start, end)) {
            planned.push_back(&r.holding);
            reserved_ranks.push_back(&r.cores_on);
            gpus_alone = gpus_alone || r.gpus_alone;
        }
    if (planned.empty())
        return in_.pool.allocate(q, order(), &budget);
    // Whole nodes in Fluxion's order, where every rank with its cores free is wholly free:
    // the wholly free ranks that no reservation holds cores of, from the highest, are
    // what the pool with the reservations withheld would give.
    if (q.nodes && q.exclusive && !gpus_alone && order() == NodeOrder::highest_first &&
        in_.pool.wholly_free_alike())
        return in_.pool.allocate_whole_avoiding(q, reserved_ranks, &budget);
    // For whole nodes: too few ranks free that no reservation takes.
    if (q.exclusive) {
        std::vector<std::size_t> taken;
        for (const Holding* h : planned)
            for (const auto& p : h->parts)
                if (!p.cores.empty() && in_.pool.cores_free(p.index))
                    taken.push_back(p.index);
        std::sort(taken.begin(), taken.end());
        const auto distinct = static_cast<std::uint64_t>(
            std::unique(taken.begin(), taken.end()) - taken.begin());
        if (in_.pool.ranks_with_cores_free() - distinct < q.least_nodes())
            return std::nullopt;
    }
    // Too few cores free, reservations or not: no need to take them out.
    const std::uint64_t least =
        std::max(saturating_product(q.least_slots(), q.slot_cores), q.least_nodes());
    if (in_.pool.free_cores() < least)
        return std::nullopt;
    // The reservations' resources out for the allocation (what of them is free: two may
    // hold the same at different times), and back after it.
    std::vector<Holding> withheld;
    withheld.reserve(planned.size());
    for (const Holding* h : planned)
        withheld.push_back(in_.pool.withhold(*h));
    auto out = in_.pool.allocate(q, order(), &budget);
    for (auto h = withheld.rbegin(); h != withheld.rend(); ++h)
        in_.pool.give_back(*h);
    return out;
}

Simulation::Reservation Simulation::reservation(std::size_t job, Holding holding, double start,
                                                std::optional<double> end) const {
    Reservation r{job, in_.jobs[job].queue, std::move(holding), start, end,
                  support::BitRow(in_.pool.size()), false};
    for (const auto& p : r.holding.parts) {
        if (!p.cores.empty())
            r.cores_on.set(p.index, true);
        else if (!p.gpus.empty())
            r.gpus_alone = true;
    }
    return r;
}

Holding Simulation::highest_unheld(const std::vector<std::uint32_t>& held,
                                   const std::vector<char>& eligible, const SchedulerRequest& q,
                                   match::StepBudget& budget) const {
    const SimPool& pool = start_pool_;
    const std::uint64_t most = q.nodes->max.value_or(no_limit);
    std::vector<std::size_t> taken;
    for (std::size_t i = pool.size(); i-- > 0 && taken.size() < most;) {
        budget.spend();
        if (eligible[i] && held[i] == 0 && pool.gpus(i) >= q.slot_gpus)
            taken.push_back(i);
    }
    if (taken.size() < q.nodes->min)
        return Holding{};
    return pool.whole_ranks(taken);
}

std::optional<Simulation::Reservation> Simulation::reserve(std::size_t job,
                                                           match::StepBudget& budget) {
    const SimJob& j = in_.jobs[job];
    const SchedulerRequest& q = j.request;
    // The running jobs that end, by their ends (sorted again only when they changed).
    if (ending_stale_) {
        ending_.clear();
        for (const auto& a : active_)
            if (a.end)
                ending_.emplace_back(*a.end, &a);
        std::sort(ending_.begin(), ending_.end());
        ending_stale_ = false;
    }
    const auto& running = ending_;
    // The times it may start: the ends of the running jobs and of the reservations.
    std::vector<double> times;
    times.reserve(running.size() + reservations_.size());
    for (const auto& [end, a] : running)
        if (end > now_)
            times.push_back(end);
    const auto by_running = static_cast<std::ptrdiff_t>(times.size());
    for (const auto& r : reservations_)
        if (r.end && *r.end > now_)
            times.push_back(*r.end);
    std::sort(times.begin() + by_running, times.end());
    std::inplace_merge(times.begin(), times.begin() + by_running, times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    // For a job of whole nodes, a time is tried rank by rank only when enough ranks are
    // left wholly unheld through its window: how many holdings hold cores of each rank,
    // the running jobs' dropped as their ends pass, the reservations' added for each window.
    const bool counting = q.exclusive;
    std::vector<std::uint32_t>& held = held_scratch_;
    std::uint64_t unheld = 0;
    const std::vector<char>& eligible = counting ? eligible_ranks(q.candidates) : eligible_;
    if (counting) {
        held = held_by_active_;
        for (std::size_t i = 0; i < held.size(); ++i)
            unheld += eligible[i] != 0 && held[i] == 0;
    }
    // A part of GPUs without cores leaves a rank's cores free: such a rank is left to
    // the pool, rank by rank (below).
    bool gpus_alone = counting && gpus_alone_active_ > 0;
    const auto hold = [&](const Holding& h, bool take) {
        for (const auto& p : h.parts) {
            if (p.cores.empty()) {
                gpus_alone = gpus_alone || !p.gpus.empty();
                continue;
            }
            if (take) {
                unheld -= held[p.index]++ == 0 && eligible[p.index];
            } else {
                unheld += --held[p.index] == 0 && eligible[p.index];
            }
        }
    };
    // The reservations through each window [t, end(t)): as t grows, one joins when it
    // starts before the window ends, and leaves when it ends by the window's start.
    std::vector<std::size_t> by_start(counting ? reservations_.size() : 0);
    std::iota(by_start.begin(), by_start.end(), std::size_t{0});
    std::vector<std::size_t> by_end = by_start;
    std::sort(by_start.begin(), by_start.end(), [&](std::size_t a, std::size_t b) {
        return reservations_[a].start < reservations_[b].start;
    });
    const auto ends_by = [&](std::size_t k, double t) {
        return reservations_[k].end && *reservations_[k].end <= t;
    };
    std::sort(by_end.begin(), by_end.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = reservations_[a].end;
        const auto& y = reservations_[b].end;
        return x && (!y || *x < *y);
    });
    std::vector<char> through(by_start.size(), 0);
    std::size_t joined = 0;
    std::size_t left = 0;
    // The times in turn. The pool is made what is free at a time only when that time is
    // tried: the running jobs ended by then given back (and all taken again at the end).
    std::size_t ended = 0;
    std::size_t returned = 0;
    std::optional<Reservation> out;
    for (const double t : times) {
        const auto end = end_of(j, t);
        for (; ended < running.size() && running[ended].first <= t; ++ended)
            if (counting)
                hold(running[ended].second->holding, false);
        if (counting) {
            for (; left < by_end.size() && ends_by(by_end[left], t); ++left)
                if (through[by_end[left]] != 0) {
                    hold(reservations_[by_end[left]].holding, false);
                    through[by_end[left]] = 0;
                }
            for (; joined < by_start.size() && (!end || *end > reservations_[by_start[joined]].start);
                 ++joined)
                if (!ends_by(by_start[joined], t)) {
                    hold(reservations_[by_start[joined]].holding, true);
                    through[by_start[joined]] = 1;
                }
            const bool may = unheld >= q.least_nodes();
            // Whole nodes from the highest, where no holding holds cores through the
            // window: what the pool made at t would give, without making it.
            std::optional<Holding> whole;
            if (may && q.nodes && q.nodes->min > 0 && !gpus_alone &&
                order() == NodeOrder::highest_first)
                whole = highest_unheld(held, eligible, q, budget);
            if (whole && !whole->parts.empty()) {
                out = reservation(job, std::move(*whole), t, end);
                break;
            }
            if (!may || whole)
                continue;
        }
        for (; returned < ended; ++returned)
            in_.pool.give_back(running[returned].second->holding);
        if (auto h = allocate_in(t, end, q, budget)) {
            out = reservation(job, std::move(*h), t, end);
            break;
        }
    }
    for (std::size_t i = 0; i < returned; ++i)
        in_.pool.take(running[i].second->holding);
    return out;
}

bool Simulation::fluxion_step(match::StepBudget& budget) {
    if (fluxion_queue_ >= fluxion_queue_names_.size())
        return false;
    const std::string& name = fluxion_queue_names_[fluxion_queue_];
    const auto setup = in_.setup.fluxion_queues.find(name);
    const FluxionQueue queue = setup != in_.setup.fluxion_queues.end() ? setup->second
                               : in_.setup.fluxion_queues.count("default") != 0
                                   ? in_.setup.fluxion_queues.at("default")
                                   : FluxionQueue{};
    const auto next_queue = [&] {
        leave_last_plan();
        plans_[fluxion_queue_].as_of = unforeseen_;
        ++fluxion_queue_;
        pass_at_ = 0;
        pass_phase_ = 0;
        counted_ = reserved_ = 0;
        return true;
    };
    if (pass_phase_ == 0) { // its reservations are made again, or taken from its last plan
        QueuePlan& plan = plans_[fluxion_queue_];
        replaying_ = !in_.replan && queue.policy != FluxionPolicy::fcfs &&
                     plan.as_of == unforeseen_;
        last_plan_.swap(plan.jobs);
        plan.jobs.clear();
        last_plan_at_ = last_reserved_at_ = 0;
        last_reserved_.clear();
        const auto mine = std::stable_partition(
            reservations_.begin(), reservations_.end(),
            [&](const Reservation& r) { return r.queue != name; });
        if (replaying_)
            std::move(mine, reservations_.end(), std::back_inserter(last_reserved_));
        else if (mine != reservations_.end())
            ++unforeseen_; // made again, they may be made otherwise
        reservations_.erase(mine, reservations_.end());
        start_line(&name);
        pass_phase_ = 1;
        return true;
    }
    const auto next = next_in_line();
    if (!next || counted_ >= queue.queue_depth)
        return next_queue();
    const std::size_t j = *next;
    ++pass_at_;
    if (replaying_ && replay(j))
        return true;
    leave_last_plan();
    const SimJob& job = in_.jobs[j];
    const SchedulerRequest& q = job.request;
    // Fluxion refuses, or sets aside, a job asking more nodes than are up; and one with
    // constraints asking more of the nodes they allow than jobs without a time limit
    // leave unheld at the end of its plans.
    bool more_nodes_than_up = q.least_nodes() > in_.pool.up_ranks();
    std::vector<std::uint64_t> holding_for_ever;
    if (q.constrained && !more_nodes_than_up) {
        std::vector<const Holding*> unending;
        for (const auto& a : active_)
            if (!a.end) {
                unending.push_back(&a.holding);
                if (a.holding.ranks(in_.pool).intersects(q.candidates))
                    holding_for_ever.push_back(a.id);
            }
        more_nodes_than_up = q.least_nodes() > in_.pool.not_held_whole(q.candidates, unending);
        if (!more_nodes_than_up)
            holding_for_ever.clear();
    }
    auto h = allocate_in(now_, end_of(job, now_), q, budget);
    const auto deny_here = [&] {
        deny(j);
        out_[j].after = holding_for_ever;
    };
    if (queue.policy == FluxionPolicy::fcfs) {
        if (!feasible(j) || more_nodes_than_up) {
            // The refusal ends the queue's stream; it is tried again from the top in a
            // pass right after this one.
            deny_here();
            pass_again_ = true;
            return next_queue();
        }
        if (!h) // head of line: the queue waits
            return next_queue();
        start_job(j, std::move(*h));
        ++counted_;
        return true;
    }
    if (h) {
        start_job(j, std::move(*h));
        ++counted_;
        return true;
    }
    if (reserved_ < queue.reservation_depth) {
        if (!feasible(j)) {
            deny(j);
            ++counted_;
            return true;
        }
        if (more_nodes_than_up)
            return true; // blocked until something changes; not counted
        auto r = reserve(j, budget);
        plans_[fluxion_queue_].jobs.emplace_back(j, r.has_value());
        if (r) {
            out_[j].reserved_at = r->start;
            reservations_.push_back(std::move(*r));
            ++reserved_;
            ++counted_;
            ++unforeseen_;
        }
        return true; // no time it fits: blocked, not counted
    }
    if (!feasible(j) || more_nodes_than_up)
        deny_here();
    ++counted_;
    return true;
}

void Simulation::count_active(const Holding& holding, bool add) {
    if (in_.setup.kind != SchedulerKind::fluxion)
        return; // only Fluxion's reservations read them
    bool gpus_alone = false;
    for (const auto& p : holding.parts) {
        if (p.cores.empty())
            gpus_alone = gpus_alone || !p.gpus.empty();
        else if (add)
            ++held_by_active_[p.index];
        else
            --held_by_active_[p.index];
    }
    if (gpus_alone)
        gpus_alone_active_ = add ? gpus_alone_active_ + 1 : gpus_alone_active_ - 1;
}

const std::vector<char>& Simulation::eligible_ranks(const IdSet& candidates) {
    if (eligible_for_ != candidates || eligible_.empty()) {
        const SimPool& pool = start_pool_;
        eligible_.assign(pool.size(), 0);
        for (const auto& range : candidates.ranges()) {
            const auto [lo, hi] = pool.indices(range);
            for (std::size_t i = lo; i < hi; ++i)
                eligible_[i] = pool.up(i) ? 1 : 0;
        }
        eligible_for_ = candidates;
    }
    return eligible_;
}

void Simulation::leave_last_plan() {
    // Reservations of the last plan not taken again are made anew, or not at all.
    if (replaying_ && last_reserved_at_ < last_reserved_.size())
        ++unforeseen_;
    replaying_ = false;
}

bool Simulation::replay(std::size_t job) {
    if (last_plan_at_ == last_plan_.size() || last_plan_[last_plan_at_].first != job)
        return false;
    auto& plan = plans_[fluxion_queue_].jobs;
    if (!last_plan_[last_plan_at_].second) { // no time it fits, as before
        ++last_plan_at_;
        plan.emplace_back(job, false);
        return true;
    }
    if (last_reserved_at_ == last_reserved_.size() || last_reserved_[last_reserved_at_].job != job ||
        last_reserved_[last_reserved_at_].start < now_)
        return false;
    ++last_plan_at_;
    Reservation& r = last_reserved_[last_reserved_at_++];
    ++counted_;
    if (r.start == now_) {
        start_job(job, std::move(r.holding), true);
        return true;
    }
    out_[job].reserved_at = r.start;
    reservations_.push_back(std::move(r));
    ++reserved_;
    plan.emplace_back(job, true);
    return true;
}

bool Simulation::next_event() {
    std::optional<Moment> next;
    for (const auto& a : active_)
        if (a.end && (!next || a.end_moment().before(*next)))
            next = a.end_moment();
    if (!next)
        return false;
    now_ = std::max(now_, next->time);
    now_passes_ = next->passes + 1;
    ++pass_number_;
    ended_now_.clear();
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->end && !next->before(it->end_moment())) {
            in_.pool.give_back(it->holding);
            count_active(it->holding, false);
            ended_now_.push_back(it->id);
            it = active_.erase(it);
            ending_stale_ = true;
        } else {
            ++it;
        }
    }
    for (const std::uint64_t id : ended_now_)
        released(id, false);
    std::erase_if(reservations_, [&](const Reservation& r) { return r.end && *r.end <= now_; });
    return true;
}

std::vector<std::uint64_t> Simulation::unending() const {
    std::vector<std::uint64_t> out;
    for (const auto& a : active_)
        out.push_back(a.id);
    return out;
}

std::vector<const Holding*> Simulation::unending_holdings() const {
    std::vector<const Holding*> out;
    for (const auto& a : active_)
        out.push_back(&a.holding);
    return out;
}

} // namespace jobspec::forecasting
