// forecast: each pending job's scheduler request and allowed ranks, the scheduler run
// forward (forecast/simulation), jobspec's matcher asked of the jobs that do not start,
// and the verdicts (forecast/verdicts); in bounded steps, for a job manager.
#include <jobspec/forecast.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include <jobspec/fluid.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_config.hpp>

#include "api/match_counted.hpp"
#include "forecast/scheduler_request.hpp"
#include "forecast/simulation.hpp"
#include "forecast/verdicts.hpp"

namespace jobspec {

namespace {

using forecasting::SimJob;

/// A positive number, or nothing.
std::optional<std::uint64_t> positive(std::string_view text) {
    std::uint64_t n = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || n == 0)
        return std::nullopt;
    return n;
}

/// "k=v,k=v" (whitespace left out) -> {k: v}; a value may be JSON-quoted.
std::map<std::string, std::string> params_of(std::string_view text) {
    std::map<std::string, std::string> out;
    std::string clean;
    for (const char c : text)
        if (c != ' ' && c != '\t' && c != '\n')
            clean += c;
    std::string_view rest = clean;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view pair = rest.substr(0, comma);
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos) {
            std::string value(pair.substr(eq + 1));
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
                value = value.substr(1, value.size() - 2);
            out[std::string(pair.substr(0, eq))] = value;
        }
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    return out;
}

std::string string_member(const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

/// One Fluxion queue from its policy and parameter strings, as qmanager sets it up.
FluxionQueue fluxion_queue(std::string_view policy, std::string_view queue_params,
                           std::string_view policy_params) {
    FluxionQueue q;
    q.policy = policy == "easy"           ? FluxionPolicy::easy
               : policy == "hybrid"       ? FluxionPolicy::hybrid
               : policy == "conservative" ? FluxionPolicy::conservative
                                          : FluxionPolicy::fcfs;
    const auto qp = params_of(queue_params);
    if (const auto it = qp.find("queue-depth"); it != qp.end())
        if (const auto n = positive(it->second))
            q.queue_depth = std::min<std::uint64_t>(*n, 1000000);
    const auto pp = params_of(policy_params);
    std::uint64_t most = 100000; // max-reservation-depth
    if (const auto it = pp.find("max-reservation-depth"); it != pp.end())
        if (const auto n = positive(it->second))
            most = *n;
    switch (q.policy) {
    case FluxionPolicy::fcfs:
        q.reservation_depth = 0;
        break;
    case FluxionPolicy::easy:
        q.reservation_depth = 1;
        break;
    case FluxionPolicy::hybrid: {
        q.reservation_depth = 64;
        if (const auto it = pp.find("reservation-depth"); it != pp.end())
            if (const auto n = positive(it->second); n && *n < most)
                q.reservation_depth = *n;
        break;
    }
    case FluxionPolicy::conservative:
        q.reservation_depth = std::min(q.queue_depth, most);
        break;
    }
    return q;
}

/// The ranks a job may run on: its constraints' and its queue's (RFC 33).
IdSet allowed_ranks(const Jobspec& js, const ResourceSet& all, const std::optional<Queue>& queue) {
    IdSet ranks = all.ranks();
    if (const Constraint* c = js.attributes.constraints()) {
        auto matched = c->match(all);
        ranks = matched.ok() ? std::move(matched).value() : IdSet{};
    }
    if (queue) {
        if (!queue->properties.empty()) {
            auto matched = Constraint{"properties", queue->properties}.match(all);
            ranks = ranks.intersected(matched.ok() ? matched.value() : IdSet{});
        }
        if (queue->hosts && !queue->hosts->all)
            ranks = ranks.intersected(all.ranks_of(queue->hosts->list));
    }
    return ranks;
}

/// Fluxion writes the end of its plans as the expiration of a job without a time limit:
/// its graph's end, 3153600000 (late 2069) or the largest time it keeps (2262). No time
/// limit reaches that far: such a job runs for ever.
constexpr double plans_end = 3153600000.0;

/// The dependencies job-list names that the forecast can see met, as (job, at its start):
/// "after-start=ID" when the job starts, "after-finish=ID" when it ends; nothing when
/// another is among them (after-success, after-failure: how a job ends is not known).
std::vector<std::pair<std::uint64_t, bool>> releases(const std::vector<std::string>& names) {
    std::vector<std::pair<std::uint64_t, bool>> out;
    for (const std::string& name : names) {
        const auto eq = name.find('=');
        const std::string_view scheme = std::string_view(name).substr(0, eq);
        if (eq == std::string::npos || (scheme != "after-start" && scheme != "after-finish"))
            return {};
        auto id = parse_fluid(std::string_view(name).substr(eq + 1));
        if (!id.ok())
            return {};
        out.emplace_back(id.value().id, scheme == "after-start");
    }
    return out;
}

} // namespace

std::vector<std::string> dependency_descriptions(const Jobspec& jobspec) {
    static constexpr std::pair<std::string_view, std::string_view> after[] = {
        {"after", "after-start"},       {"afterstart", "after-start"},
        {"afterany", "after-finish"},   {"afterok", "after-success"},
        {"afternotok", "after-failure"}, {"afterexcept", "after-except"}};
    std::vector<std::string> out;
    const auto* dependencies = jobspec.attributes.dependencies();
    for (const auto& d : dependencies != nullptr ? *dependencies : std::vector<Dependency>{}) {
        std::string name = d.scheme + "=" + d.value;
        for (const auto& [scheme, type] : after)
            if (d.scheme == scheme)
                name = std::string(type) + "=" + d.value;
        if (d.scheme == "singleton")
            name = "singleton";
        if (d.scheme == "begin-time") {
            char* end = nullptr;
            const double t = std::strtod(d.value.c_str(), &end);
            if (end != d.value.c_str() && *end == '\0')
                name = fmt::format("begin-time={:.3f}", t);
        }
        out.push_back(std::move(name));
    }
    return out;
}

namespace {

/// What one unit of work costs, in steps, besides the ranks it looks at: a job read into
/// the simulation, a job judged.
constexpr std::uint64_t job_steps = 16;

} // namespace

SchedulerSetup scheduler_setup(std::string_view module, const std::vector<std::string>& args,
                               const boost::json::value* fluxion) {
    SchedulerSetup s;
    s.name = module;
    if (module == "sched-simple" || module == "sched-fifo" || module == "sched-backfill") {
        s.kind = module == "sched-backfill" ? SchedulerKind::backfill : SchedulerKind::fifo;
        s.queue_depth = module == "sched-backfill" ? 0 : 8;
        for (const auto& a : args) {
            const std::string_view arg = a;
            if (arg == "queue-depth=unlimited" || arg == "mode=unlimited")
                s.queue_depth = 0;
            else if (arg.starts_with("queue-depth="))
                s.queue_depth = positive(arg.substr(12)).value_or(s.queue_depth);
            else if (arg.starts_with("mode=limited="))
                s.queue_depth = positive(arg.substr(13)).value_or(s.queue_depth);
        }
        return s;
    }
    if (module == "sched-fluxion-qmanager" || module == "fluxion") {
        s.kind = SchedulerKind::fluxion;
        s.queue_depth = 0;
        boost::json::object params;
        if (fluxion != nullptr && fluxion->is_object()) {
            const auto* inner = fluxion->as_object().if_contains("params");
            params = inner != nullptr && inner->is_object() ? inner->as_object()
                                                            : fluxion->as_object();
        }
        const std::string policy = string_member(params, "queue-policy");
        const std::string qp = string_member(params, "queue-params");
        const std::string pp = string_member(params, "policy-params");
        s.fluxion_queues["default"] = fluxion_queue(policy, qp, pp);
        for (const auto& [name, value] : params) {
            if (!value.is_object())
                continue;
            const auto& q = value.as_object();
            // A queue's own strings replace the instance's, each as a whole.
            const auto own = [&](std::string_view key, const std::string& global) {
                return q.if_contains(key) != nullptr && !string_member(q, key).empty()
                           ? string_member(q, key)
                           : global;
            };
            s.fluxion_queues[std::string(name)] = fluxion_queue(
                own("queue-policy", policy), own("queue-params", qp), own("policy-params", pp));
        }
        return s;
    }
    s.kind = SchedulerKind::unknown;
    return s;
}

struct ForecastRun::Impl {
    enum class Phase { requests, simulate, judge, done };

    std::shared_ptr<const InstanceState> state;
    ForecastOptions options;
    Phase phase = Phase::requests;
    std::size_t at = 0;
    std::vector<SimJob> jobs;
    std::vector<ConfigFile> config;
    std::map<std::string, std::optional<Queue>> queues;
    std::optional<forecasting::Simulation> sim;
    std::optional<forecasting::Judging> judging;
    Forecast result;

    const std::optional<Queue>& queue(const std::string& name) {
        auto it = queues.find(name);
        if (it == queues.end()) {
            auto q = read_queue(config, name);
            it = queues.emplace(name, q.ok() ? q.value() : std::nullopt).first;
        }
        return it->second;
    }

    bool queue_started(const std::string& name) const {
        for (const auto& q : state->queues)
            if (q.name == name)
                return q.started;
        return true;
    }

    /// One pending job into the simulation's terms.
    void request(std::size_t i) {
        const PendingJob& p = state->pending[i];
        SimJob j;
        j.id = p.id;
        j.priority = p.priority;
        j.t_submit = p.t_submit;
        j.queue = p.queue;
        j.considered = p.state == PendingState::sched && p.priority > 0 && p.urgency > 0 &&
                       queue_started(p.queue);
        if (p.state == PendingState::depend && p.urgency > 0 && queue_started(p.queue)) {
            j.released_by = releases(p.dependencies);
            if (j.priority <= 0) // no priority before its dependencies are met: the default's
                j.priority = p.urgency;
        }
        if (p.jobspec) {
            j.request = forecasting::scheduler_request(*p.jobspec);
            j.request.candidates = allowed_ranks(*p.jobspec, state->all, queue(p.queue));
        } else {
            j.request.unreadable = "its jobspec cannot be read";
        }
        jobs.push_back(std::move(j));
    }

    void start_simulation() {
        forecasting::SimInput in{state->now, state->expiration, state->scheduler,
                              forecasting::SimPool(state->all, state->down), {}, std::move(jobs)};
        // A core or GPU that two running jobs' R both name (a state written by hand) is
        // held until the later of their ends: the job that ends last holds it, the others
        // what is left.
        std::vector<std::size_t> by_end(state->running.size());
        std::iota(by_end.begin(), by_end.end(), std::size_t{0});
        const auto end_of = [&](std::size_t i) {
            const auto& end = state->running[i].end;
            return end && *end < plans_end ? *end : std::numeric_limits<double>::infinity();
        };
        std::stable_sort(by_end.begin(), by_end.end(),
                         [&](std::size_t a, std::size_t b) { return end_of(a) > end_of(b); });
        std::vector<forecasting::Holding> held(by_end.size());
        forecasting::SimPool claims = in.pool;
        for (const std::size_t i : by_end)
            held[i] = claims.withhold(in.pool.holding_of(state->running[i].r));
        for (std::size_t i = 0; i < held.size(); ++i) {
            const double end = end_of(i);
            in.running.push_back({state->running[i].id, std::move(held[i]),
                                  std::isinf(end) ? std::nullopt : std::optional<double>(end)});
        }
        sim.emplace(std::move(in));
    }

    /// jobspec's matcher on all of R, for a job whose verdict needs it (or its verdict kept
    /// from an earlier forecast): nothing when it fits, else why not; the steps it took.
    std::uint64_t explain(std::size_t i, std::optional<Diagnostics>& verdict) {
        const PendingJob& p = state->pending[i];
        if (!p.jobspec) {
            verdict = p.problem;
            return 0;
        }
        auto known = options.explained ? options.explained->find(p.id) : std::nullopt;
        std::uint64_t steps = 0;
        if (!known) {
            MatchOptions m;
            m.config_files = config;
            m.queue = p.queue;
            m.max_steps = options.max_steps;
            auto placed = api::match_counted(*p.jobspec, state->all, m, steps);
            known = placed.ok() ? Diagnostics{} : placed.diagnostics();
            if (options.explained)
                options.explained->keep(p.id, *known);
        }
        if (known->has_errors())
            verdict = std::move(*known);
        return steps;
    }
};

std::optional<Diagnostics> Explanations::find(std::uint64_t id) const {
    const std::lock_guard lock(mutex_);
    const auto it = verdicts_.find(id);
    return it != verdicts_.end() ? std::optional<Diagnostics>(it->second) : std::nullopt;
}

void Explanations::keep(std::uint64_t id, Diagnostics verdict) {
    const std::lock_guard lock(mutex_);
    verdicts_.insert_or_assign(id, std::move(verdict));
}

void Explanations::forget(std::uint64_t id) {
    const std::lock_guard lock(mutex_);
    verdicts_.erase(id);
}

void Explanations::clear() {
    const std::lock_guard lock(mutex_);
    verdicts_.clear();
}

std::size_t Explanations::size() const {
    const std::lock_guard lock(mutex_);
    return verdicts_.size();
}

ForecastRun::ForecastRun(std::shared_ptr<const InstanceState> state, ForecastOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->state = std::move(state);
    impl_->options = options;
    impl_->result.now = impl_->state->now;
    if (!impl_->state->config_json.empty())
        impl_->config.push_back({"config.json", impl_->state->config_json});
}

ForecastRun::~ForecastRun() = default;
ForecastRun::ForecastRun(ForecastRun&&) noexcept = default;
ForecastRun& ForecastRun::operator=(ForecastRun&&) noexcept = default;

bool ForecastRun::advance(std::uint64_t steps) {
    Impl& r = *impl_;
    std::uint64_t used = 0;
    const std::size_t n = r.state->pending.size();
    while (r.phase != Impl::Phase::done && used < steps) {
        switch (r.phase) {
        case Impl::Phase::requests:
            if (r.at < n) {
                r.request(r.at++);
                used += job_steps + r.state->all.groups().size();
            } else {
                r.start_simulation();
                r.phase = Impl::Phase::simulate;
            }
            break;
        case Impl::Phase::simulate:
            if (r.sim->advance(steps - used))
                r.phase = Impl::Phase::judge;
            used = steps; // the simulation spends what it is given
            break;
        case Impl::Phase::judge: {
            // A job's verdict may need an explanation, which is not divided: one is started
            // only as a call's first work, or when it fits what the call has left.
            if (r.options.max_steps && used > 0 && steps - used < *r.options.max_steps)
                return false;
            if (!r.judging)
                r.judging.emplace(*r.state, *r.sim,
                                  [&r](std::size_t i, std::optional<Diagnostics>& verdict) {
                                      return r.explain(i, verdict);
                                  });
            const std::uint64_t before = r.judging->explaining_steps();
            if (r.judging->step()) {
                // a job judged: up to three allocations over R's ranks, and its explanation
                used += job_steps + 3 * r.sim->pool_at_start().size() +
                        (r.judging->explaining_steps() - before);
                break;
            }
            r.result.jobs = r.judging->take();
            r.judging.reset();
            if (r.state->scheduler.kind == SchedulerKind::unknown)
                r.result.order_unknown =
                    fmt::format("{}: jobspec does not know its order", r.state->scheduler.name);
            r.phase = Impl::Phase::done;
            break;
        }
        case Impl::Phase::done:
            break;
        }
    }
    return r.phase == Impl::Phase::done;
}

bool ForecastRun::done() const noexcept {
    return impl_->phase == Impl::Phase::done;
}

const Forecast& ForecastRun::result() const noexcept {
    return impl_->result;
}

const InstanceState& ForecastRun::state() const noexcept {
    return *impl_->state;
}

Forecast forecast(const InstanceState& state, const ForecastOptions& options) {
    ForecastRun run(std::make_shared<const InstanceState>(state), options);
    while (!run.advance(std::uint64_t{1} << 40)) {
    }
    return run.result();
}

} // namespace jobspec
