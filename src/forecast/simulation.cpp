#include "forecast/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace jobspec::forecasting {

namespace {

constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();

/// Whether [a_start, a_end) and [b_start, b_end) overlap (no end: for ever).
bool overlap(double a_start, std::optional<double> a_end, double b_start,
             std::optional<double> b_end) {
    return (!a_end || *a_end > b_start) && (!b_end || *b_end > a_start);
}

} // namespace

Simulation::Simulation(SimInput input)
    : in_(std::move(input)), start_pool_(in_.pool), out_(in_.jobs.size()),
      pending_(in_.jobs.size(), false), now_(in_.now) {
    for (const auto& r : in_.running) {
        start_pool_.take(r.holding);
        // A job past its expiration is being ended: its resources come back at once.
        active_.push_back({r.id, r.holding,
                           r.end ? std::optional<double>(std::max(*r.end, now_)) : std::nullopt});
    }
    for (std::size_t i = 0; i < in_.jobs.size(); ++i)
        pending_[i] = in_.jobs[i].considered;
    in_.pool = start_pool_;
    // What ended already ends now, before the first pass.
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->end && *it->end <= now_) {
            in_.pool.give_back(it->holding);
            ended_now_.push_back(it->id);
            it = active_.erase(it);
        } else {
            ++it;
        }
    }
    if (in_.setup.kind == SchedulerKind::unknown)
        done_ = true;
    if (in_.setup.kind == SchedulerKind::fluxion) {
        std::set<std::string> names;
        for (const auto& j : in_.jobs)
            if (j.considered)
                names.insert(j.queue);
        fluxion_queue_names_.assign(names.begin(), names.end());
    }
}

NodeOrder Simulation::order() const noexcept {
    return in_.setup.kind == SchedulerKind::fluxion ? NodeOrder::highest_first
                                                     : NodeOrder::most_free;
}

std::vector<std::size_t> Simulation::line(const std::string* queue, bool all) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < in_.jobs.size(); ++i)
        if ((all ? in_.jobs[i].considered : pending_[i]) &&
            (queue == nullptr || in_.jobs[i].queue == *queue))
            out.push_back(i);
    const bool fluxion = in_.setup.kind == SchedulerKind::fluxion;
    std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
        const SimJob& x = in_.jobs[a];
        const SimJob& y = in_.jobs[b];
        if (x.priority != y.priority)
            return x.priority > y.priority;
        if (fluxion && x.t_submit != y.t_submit)
            return x.t_submit < y.t_submit;
        return x.id < y.id;
    });
    return out;
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

void Simulation::start_job(std::size_t job, Holding holding) {
    in_.pool.take(holding);
    SimOutcome& o = out_[job];
    o.start = now_;
    o.end = end_of(in_.jobs[job], now_);
    o.after = ended_now_;
    active_.push_back({in_.jobs[job].id, holding, o.end});
    o.holding = std::move(holding);
    pending_[job] = false;
}

void Simulation::deny(std::size_t job) {
    out_[job].denied = true;
    pending_[job] = false;
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
            if (in_.setup.kind != SchedulerKind::fluxion)
                pass_line_ = line(nullptr);
            else
                pass_line_.clear();
        }
        work.spend();
        if (pass_step(work))
            continue;
        in_pass_ = false;
        const bool any = std::find(pending_.begin(), pending_.end(), true) != pending_.end();
        if (!any || !next_event())
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
    if (pass_at_ >= pass_line_.size())
        return false;
    const std::size_t j = pass_line_[pass_at_];
    const SchedulerRequest& q = in_.jobs[j].request;
    if (!in_.pool.feasible(q)) { // denied at the head; the line goes on
        deny(j);
        ++pass_at_;
        return true;
    }
    if (auto h = in_.pool.allocate(q, order(), &budget)) {
        start_job(j, std::move(*h));
        ++pass_at_;
        return true;
    }
    return false; // the head waits, and every job behind it
}

std::optional<double> Simulation::shadow_time(const SchedulerRequest& head,
                                              match::StepBudget& budget) const {
    std::vector<const Active*> ending;
    for (const auto& a : active_)
        if (a.end)
            ending.push_back(&a);
    std::sort(ending.begin(), ending.end(),
              [](const Active* a, const Active* b) { return *a->end < *b->end; });
    SimPool later = in_.pool;
    for (std::size_t i = 0; i < ending.size();) {
        const double t = *ending[i]->end;
        for (; i < ending.size() && *ending[i]->end <= t; ++i)
            later.give_back(ending[i]->holding);
        if (later.allocate(head, order(), &budget))
            return std::max(t, now_);
    }
    return std::nullopt;
}

bool Simulation::backfill_step(match::StepBudget& budget) {
    if (pass_phase_ == 0) { // the head, as long as heads start
        if (pass_at_ >= pass_line_.size())
            return false;
        const std::size_t j = pass_line_[pass_at_];
        const SchedulerRequest& q = in_.jobs[j].request;
        ++pass_at_;
        if (!in_.pool.feasible(q)) {
            deny(j);
            return true;
        }
        if (auto h = in_.pool.allocate(q, order(), &budget)) {
            start_job(j, std::move(*h));
            return true;
        }
        shadow_ = shadow_time(q, budget);
        pass_phase_ = 1;
        return true;
    }
    // The others in order, each started now when it ends by the head's shadow time.
    const std::uint64_t depth = in_.setup.queue_depth == 0 ? no_limit : in_.setup.queue_depth;
    if (pass_at_ >= pass_line_.size() || pass_at_ >= depth)
        return false;
    const std::size_t j = pass_line_[pass_at_++];
    const SchedulerRequest& q = in_.jobs[j].request;
    if (!shadow_ || q.duration <= 0 || now_ + q.duration > *shadow_)
        return true;
    if (!in_.pool.feasible(q))
        deny(j);
    else if (auto h = in_.pool.allocate(q, order(), &budget))
        start_job(j, std::move(*h));
    return true;
}

SimPool Simulation::window(double start, std::optional<double> end) const {
    std::vector<const Holding*> busy;
    for (const auto& a : active_)
        if (overlap(now_, a.end, start, end))
            busy.push_back(&a.holding);
    for (const auto& r : reservations_)
        if (overlap(r.start, r.end, start, end))
            busy.push_back(&r.holding);
    return start_pool_.with_only_free(busy);
}

std::optional<Simulation::Reservation> Simulation::reserve(std::size_t job,
                                                           match::StepBudget& budget) const {
    const SimJob& j = in_.jobs[job];
    std::set<double> times;
    for (const auto& a : active_)
        if (a.end && *a.end > now_)
            times.insert(*a.end);
    for (const auto& r : reservations_)
        if (r.end && *r.end > now_)
            times.insert(*r.end);
    for (const double t : times) {
        const auto end = end_of(j, t);
        if (auto h = window(t, end).allocate(j.request, order(), &budget))
            return Reservation{job, j.queue, std::move(*h), t, end};
    }
    return std::nullopt;
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
        ++fluxion_queue_;
        pass_at_ = 0;
        pass_phase_ = 0;
        counted_ = reserved_ = 0;
        return true;
    };
    if (pass_phase_ == 0) { // this queue's pass starts: its reservations are made again
        std::erase_if(reservations_, [&](const Reservation& r) { return r.queue == name; });
        pass_line_ = line(&name);
        pass_phase_ = 1;
        return true;
    }
    if (pass_at_ >= pass_line_.size() || counted_ >= queue.queue_depth)
        return next_queue();
    const std::size_t j = pass_line_[pass_at_++];
    const SimJob& job = in_.jobs[j];
    const SchedulerRequest& q = job.request;
    // Fluxion refuses, or sets aside, a job asking more nodes than are up; and one with
    // constraints asking more of the nodes they allow than jobs without a time limit
    // leave unheld at the end of its plans.
    bool more_nodes_than_up = q.least_nodes() > in_.pool.up_ranks();
    if (q.constrained && !more_nodes_than_up) {
        std::vector<const Holding*> unending;
        for (const auto& a : active_)
            if (!a.end)
                unending.push_back(&a.holding);
        more_nodes_than_up = q.least_nodes() > in_.pool.not_held_whole(q.candidates, unending);
    }
    const auto now_view = window(now_, end_of(job, now_));
    auto h = now_view.allocate(q, order(), &budget);
    if (queue.policy == FluxionPolicy::fcfs) {
        if (!in_.pool.feasible(q) || more_nodes_than_up) {
            deny(j);
            ++counted_;
            return true;
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
        if (!in_.pool.feasible(q)) {
            deny(j);
            ++counted_;
            return true;
        }
        if (more_nodes_than_up)
            return true; // blocked until something changes; not counted
        if (auto r = reserve(j, budget)) {
            out_[j].reserved_at = r->start;
            reservations_.push_back(std::move(*r));
            ++reserved_;
            ++counted_;
        }
        return true; // no time it fits: blocked, not counted
    }
    if (!in_.pool.feasible(q) || more_nodes_than_up)
        deny(j);
    ++counted_;
    return true;
}

bool Simulation::next_event() {
    std::optional<double> next;
    for (const auto& a : active_)
        if (a.end && (!next || *a.end < *next))
            next = a.end;
    if (!next)
        return false;
    now_ = std::max(now_, *next);
    ended_now_.clear();
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->end && *it->end <= now_) {
            in_.pool.give_back(it->holding);
            ended_now_.push_back(it->id);
            it = active_.erase(it);
        } else {
            ++it;
        }
    }
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
