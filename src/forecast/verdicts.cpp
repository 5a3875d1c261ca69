#include "forecast/verdicts.hpp"

#include <algorithm>
#include <map>

namespace jobspec::forecasting {

namespace {

bool has_errors(const std::optional<Diagnostics>& d) {
    return d && d->has_errors();
}

/// The first error's code of `d`.
Code first_code(const Diagnostics& d) {
    for (const auto& x : d)
        if (x.severity == Severity::error)
            return x.code;
    return Code::jobspec_unsatisfiable;
}

/// The verdict of a job jobspec's matcher refuses: never, or unknown when it could not
/// judge it (over budget, something R cannot describe).
Verdict refused(const Diagnostics& d) {
    const Code c = first_code(d);
    return c == Code::jobspec_unsatisfiable ? Verdict::never : Verdict::unknown;
}

} // namespace

class Judge {
public:
    Judge(const InstanceState& state, const Simulation& sim, Explainer explain)
        : state_(state), sim_(sim), explain_(std::move(explain)),
          matcher_(sim.input().jobs.size()), jobs_(sim.input().jobs), out_(sim.outcomes()),
          forecast_(jobs_.size()) {
        for (std::size_t i = 0; i < jobs_.size(); ++i)
            forecast_[i].id = jobs_[i].id;
        const bool fluxion = sim_.input().setup.kind == SchedulerKind::fluxion;
        // The lines the scheduler keeps: one, or Fluxion's one per queue.
        std::vector<std::string> queues{""};
        if (fluxion) {
            queues.clear();
            for (const auto& j : jobs_)
                if (j.considered &&
                    std::find(queues.begin(), queues.end(), j.queue) == queues.end())
                    queues.push_back(j.queue);
        }
        for (const auto& q : queues)
            lines_.push_back(sim_.first_line(fluxion ? &q : nullptr));
    }

    /// Judges the next job; false once every job is judged.
    bool step() {
        while (line_ < lines_.size()) {
            const auto& line = lines_[line_];
            if (at_ == 0)
                start_line(line);
            if (at_ < line.size()) {
                judge_in_line(line[at_++]);
                return true;
            }
            ++line_;
            at_ = 0;
        }
        while (rest_ < jobs_.size()) {
            const std::size_t i = rest_++;
            if (!jobs_[i].considered) {
                not_considered(i);
                return true;
            }
        }
        return false;
    }

    std::vector<JobForecast> take() { return std::move(forecast_); }
    std::uint64_t explaining_steps() const noexcept { return explaining_steps_; }

private:
    void not_considered(std::size_t i) {
        const PendingJob& p = state_.pending[i];
        JobForecast& f = forecast_[i];
        f.no_estimate = NoEstimate::not_scheduled;
        f.verdict = p.state == PendingState::depend ? Verdict::blocked
                    : p.state == PendingState::priority || p.priority == 0 || p.urgency == 0
                        ? Verdict::held
                        : Verdict::blocked; // its queue is stopped
    }

    /// A line's jobs are judged in its order: a job's reason may be the one ahead's.
    void start_line(const std::vector<std::size_t>& line) {
        const double now = sim_.input().now;
        // The head of the line now: the first job the scheduler does not start now.
        head_.reset();
        for (const auto j : line)
            if (!(out_[j].start && *out_[j].start <= now) && !out_[j].denied) {
                head_ = j;
                break;
            }
        stuck_.reset();
    }

    void judge_in_line(std::size_t j) {
        const double now = sim_.input().now;
        const SimOutcome& o = out_[j];
        JobForecast& f = forecast_[j];
        if (sim_.input().setup.kind == SchedulerKind::unknown) {
            unordered(j);
            return;
        }
        if (o.denied) {
            refused_by_scheduler(j);
            return;
        }
        if (o.start) {
            f.start = *o.start + o.delay;
            if (o.end)
                f.end = *o.end + o.delay;
            f.nodes = o.holding.ranks(sim_.input().pool);
            f.after = o.after;
            if (*o.start <= now) {
                f.verdict = Verdict::next;
                f.after.clear();
                return;
            }
            f.verdict = Verdict::waiting;
            if (head_ && *head_ != j && fits_now(j))
                f.waits_behind = {jobs_[*head_].id};
            return;
        }
        // The first job of the line that never starts (and is not refused): every job
        // behind it that does not start waits behind it.
        if (stuck_ && fits_up(j))
            behind(j, *stuck_);
        else
            stuck_itself(j);
        if (!stuck_)
            stuck_ = j;
    }

    bool fits_now(std::size_t j) const {
        return sim_.pool_at_start().allocate(jobs_[j].request, sim_.order()).has_value();
    }
    bool fits_up(std::size_t j) const {
        return sim_.pool_at_start().fits_up(jobs_[j].request);
    }

    /// A job the scheduler refuses when it comes to it.
    void refused_by_scheduler(std::size_t j) {
        JobForecast& f = forecast_[j];
        f.no_estimate = NoEstimate::never;
        f.verdict = Verdict::never;
        f.after = out_[j].after;
        if (has_errors(explained(j))) {
            f.verdict = refused(*explained(j));
            f.diagnostics = *explained(j);
        }
    }

    /// A job that never starts, for a reason of its own.
    void stuck_itself(std::size_t j) {
        JobForecast& f = forecast_[j];
        if (has_errors(explained(j))) { // the scheduler keeps what can never run
            f.verdict = refused(*explained(j));
            f.no_estimate =
                f.verdict == Verdict::never ? NoEstimate::never : NoEstimate::unknown;
            f.diagnostics = *explained(j);
            f.kept = true;
            return;
        }
        const auto& pool = sim_.pool_at_start();
        if (!fits_up(j)) {
            f.verdict = Verdict::down;
            f.no_estimate = NoEstimate::down;
            f.down_needed = down_needed(j);
            if (f.down_needed.empty()) { // not even with every node up: jobspec disagrees
                f.verdict = Verdict::unknown;
                f.no_estimate = NoEstimate::unknown;
            }
            return;
        }
        // It fits what is up: jobs without a time limit hold what it needs.
        f.verdict = Verdict::waiting;
        f.no_estimate = NoEstimate::unending;
        const IdSet allowed = jobs_[j].request.candidates;
        const auto ids = sim_.unending();
        const auto held = sim_.unending_holdings();
        for (std::size_t k = 0; k < ids.size(); ++k)
            if (held[k]->ranks(pool).intersects(allowed))
                f.after.push_back(ids[k]);
    }

    /// A job that never starts because one ahead of it never does.
    void behind(std::size_t j, std::size_t ahead) {
        JobForecast& f = forecast_[j];
        const JobForecast& a = forecast_[ahead];
        f.waits_behind = {a.id};
        f.no_estimate = NoEstimate::behind;
        f.verdict = a.verdict == Verdict::down ? Verdict::down : Verdict::waiting;
        f.down_needed = a.down_needed;
        f.after = a.no_estimate == NoEstimate::unending ? a.after : std::vector<std::uint64_t>{};
    }

    /// The down ranks the job would take were every node up and free.
    IdSet down_needed(std::size_t j) {
        if (!all_up_)
            all_up_.emplace(state_.all, IdSet{});
        const auto h = all_up_->allocate(jobs_[j].request, sim_.order());
        return h ? h->ranks(*all_up_).intersected(state_.down) : IdSet{};
    }

    /// Another scheduler: what jobspec's matcher says, and no order or time.
    void unordered(std::size_t j) {
        JobForecast& f = forecast_[j];
        f.no_estimate = NoEstimate::unknown;
        if (has_errors(explained(j))) {
            f.verdict = refused(*explained(j));
            f.diagnostics = *explained(j);
            return;
        }
        if (!fits_up(j)) {
            f.verdict = Verdict::down;
            f.down_needed = down_needed(j);
            return;
        }
        f.verdict = Verdict::waiting;
    }

    /// jobspec's matcher's verdict on job j, asked the first time it is needed.
    const std::optional<Diagnostics>& explained(std::size_t j) {
        if (!asked_[j]) {
            asked_[j] = true;
            explaining_steps_ += explain_(j, matcher_[j]);
        }
        return matcher_[j];
    }

    const InstanceState& state_;
    const Simulation& sim_;
    Explainer explain_;
    MatcherVerdicts matcher_;
    std::vector<bool> asked_ = std::vector<bool>(matcher_.size(), false);
    std::uint64_t explaining_steps_ = 0;
    const std::vector<SimJob>& jobs_;
    const std::vector<SimOutcome>& out_;
    std::vector<JobForecast> forecast_;
    std::vector<std::vector<std::size_t>> lines_;
    std::size_t line_ = 0;
    std::size_t at_ = 0;
    std::size_t rest_ = 0;
    std::optional<std::size_t> head_;
    std::optional<std::size_t> stuck_;
    /// Every rank up and free (made when needed).
    std::optional<SimPool> all_up_;
};

Judging::Judging(const InstanceState& state, const Simulation& sim, Explainer explain)
    : judge_(std::make_unique<Judge>(state, sim, std::move(explain))) {}

Judging::~Judging() = default;

bool Judging::step() {
    return judge_->step();
}

std::vector<JobForecast> Judging::take() {
    return judge_->take();
}

std::uint64_t Judging::explaining_steps() const noexcept {
    return judge_->explaining_steps();
}

} // namespace jobspec::forecasting
