// The C API's forecasts: an instance kept job by job, and a forecast of it made in steps.
#include <cmath>
#include <sstream>
#include <unordered_map>

#include <boost/json/parse.hpp>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/forecast.hpp>
#include <jobspec/forecast_text.hpp>
#include <jobspec/resource_set.hpp>

#include "capi/handles.hpp"

struct jobspec_instance {
    jobspec::InstanceState state;
    jobspec::ReadOptions read;
    std::optional<std::uint64_t> max_steps;
    /// The matcher's verdicts on the pending jobs, kept while R and the configuration
    /// stay: each job explained once, not once per forecast.
    std::shared_ptr<jobspec::Explanations> explained = std::make_shared<jobspec::Explanations>();
    std::unordered_map<std::uint64_t, std::size_t> pending_at;
    std::unordered_map<std::uint64_t, std::size_t> running_at;
};

struct jobspec_forecast {
    jobspec::ForecastRun run;
    std::vector<std::string> verdicts;
};

namespace {

using namespace jobspec::capi;

/// JSON text without the line end to_json_text writes: a piece of a larger text.
std::string one_line(std::string text) {
    if (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

std::optional<jobspec::PendingState> state_named(const char* name) {
    const std::string_view s = name != nullptr ? name : "sched";
    if (s == "sched")
        return jobspec::PendingState::sched;
    if (s == "depend")
        return jobspec::PendingState::depend;
    if (s == "priority")
        return jobspec::PendingState::priority;
    return std::nullopt;
}

/// Removes element `id` of `items` (indexed by `at`), moving the last into its place.
template <class T>
bool remove_at(std::vector<T>& items, std::unordered_map<std::uint64_t, std::size_t>& at,
               std::uint64_t id) {
    const auto it = at.find(id);
    if (it == at.end())
        return false;
    const std::size_t i = it->second;
    at.erase(it);
    if (i + 1 != items.size()) {
        items[i] = std::move(items.back());
        at[items[i].id] = i;
    }
    items.pop_back();
    return true;
}

} // namespace

extern "C" {

jobspec_instance* jobspec_instance_new(const jobspec_options* options) {
    return guarded<jobspec_instance*>(nullptr, [&] {
        const auto& o = options_or_default(options);
        auto* instance = new jobspec_instance;
        instance->read = o.read_options();
        instance->max_steps = o.max_match_steps;
        instance->state.config_json = o.config_json;
        return instance;
    });
}

void jobspec_instance_free(jobspec_instance* instance) {
    delete instance;
}

bool jobspec_instance_set_resources(jobspec_instance* instance, const jobspec_rset* all,
                                    const jobspec_idset* down, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(instance, "instance", error) || !require(all, "all", error))
            return false;
        if (jobspec::to_json_text(jobspec::to_json_value(all->value)) !=
            jobspec::to_json_text(jobspec::to_json_value(instance->state.all)))
            instance->explained->clear();
        instance->state.all = all->value;
        instance->state.down = down != nullptr ? down->value : jobspec::IdSet{};
        instance->state.drained.clear();
        instance->state.expiration = all->value.expiration;
        return true;
    });
}

bool jobspec_instance_set_drained(jobspec_instance* instance, uint64_t rank, bool drained,
                                  const char* reason) {
    return guarded(false, [&] {
        if (instance == nullptr)
            return false;
        if (drained) {
            instance->state.drained[rank] = reason != nullptr ? reason : "";
            instance->state.down.insert(rank);
        } else {
            instance->state.drained.erase(rank);
        }
        return true;
    });
}

bool jobspec_instance_set_scheduler(jobspec_instance* instance, const char* module,
                                    const char* args, const char* fluxion_json,
                                    jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(instance, "instance", error) || !require(module, "module", error))
            return false;
        std::vector<std::string> words;
        std::istringstream in(args != nullptr ? args : "");
        for (std::string w; in >> w;)
            words.push_back(w);
        boost::json::value params;
        if (fluxion_json != nullptr && *fluxion_json != '\0') {
            boost::system::error_code ec;
            params = boost::json::parse(fluxion_json, ec);
            if (ec) {
                set_error(error, jobspec::Code::api_invalid_argument,
                          "fluxion_json is not JSON: " + ec.message());
                return false;
            }
        }
        instance->state.scheduler =
            jobspec::scheduler_setup(module, words, params.is_null() ? nullptr : &params);
        return true;
    });
}

bool jobspec_instance_set_queue(jobspec_instance* instance, const char* name, bool started,
                                const char* stop_reason) {
    return guarded(false, [&] {
        if (instance == nullptr)
            return false;
        const std::string queue = name != nullptr ? name : "";
        auto& queues = instance->state.queues;
        std::erase_if(queues, [&](const jobspec::QueueStatus& q) { return q.name == queue; });
        queues.push_back({queue, started, stop_reason != nullptr ? stop_reason : ""});
        return true;
    });
}

bool jobspec_instance_add_running(jobspec_instance* instance, uint64_t id, const char* R,
                                  double expiration, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(instance, "instance", error) || !require(R, "R", error))
            return false;
        auto r = jobspec::read_resource_set(R, instance->read.limits);
        if (!r.ok()) {
            set_error(error, std::move(r).diagnostics(), R);
            return false;
        }
        jobspec::RunningJob job{id, std::move(r).value(), std::nullopt};
        if (expiration > 0)
            job.end = expiration;
        remove_at(instance->state.running, instance->running_at, id);
        remove_at(instance->state.pending, instance->pending_at, id);
        instance->running_at[id] = instance->state.running.size();
        instance->state.running.push_back(std::move(job));
        return true;
    });
}

bool jobspec_instance_add_pending(jobspec_instance* instance, uint64_t id, const char* jobspec,
                                  const char* state, int64_t priority, uint32_t urgency,
                                  double t_submit, const char* queue, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(instance, "instance", error) || !require(jobspec, "jobspec", error))
            return false;
        const auto named = state_named(state);
        if (!named) {
            set_error(error, jobspec::Code::api_invalid_argument,
                      std::string("state '") + state + "' is not sched, depend or priority");
            return false;
        }
        jobspec::PendingJob job;
        job.id = id;
        job.state = *named;
        job.priority = priority;
        job.urgency = urgency;
        job.t_submit = t_submit;
        job.queue = queue != nullptr ? queue : "";
        auto read = jobspec::read_jobspec(jobspec, instance->read);
        if (read.ok())
            job.jobspec = std::make_shared<const jobspec::Jobspec>(std::move(read).value());
        else
            job.problem = read.diagnostics();
        if (job.state == jobspec::PendingState::depend && job.jobspec != nullptr)
            job.dependencies = jobspec::dependency_descriptions(*job.jobspec);
        remove_at(instance->state.pending, instance->pending_at, id);
        instance->explained->forget(id);
        instance->pending_at[id] = instance->state.pending.size();
        instance->state.pending.push_back(std::move(job));
        return true;
    });
}

bool jobspec_instance_update_pending(jobspec_instance* instance, uint64_t id, const char* state,
                                     int64_t priority, uint32_t urgency) {
    return guarded(false, [&] {
        if (instance == nullptr)
            return false;
        const auto it = instance->pending_at.find(id);
        const auto named = state_named(state);
        if (it == instance->pending_at.end() || !named)
            return false;
        auto& job = instance->state.pending[it->second];
        if (*named != jobspec::PendingState::depend)
            job.dependencies.clear();
        else if (job.state != jobspec::PendingState::depend && job.jobspec != nullptr)
            job.dependencies = jobspec::dependency_descriptions(*job.jobspec);
        job.state = *named;
        job.priority = priority;
        job.urgency = urgency;
        return true;
    });
}

bool jobspec_instance_remove(jobspec_instance* instance, uint64_t id) {
    return guarded(false, [&] {
        if (instance == nullptr)
            return false;
        instance->explained->forget(id);
        return remove_at(instance->state.pending, instance->pending_at, id) ||
               remove_at(instance->state.running, instance->running_at, id);
    });
}

size_t jobspec_instance_pending(const jobspec_instance* instance) {
    return instance != nullptr ? instance->state.pending.size() : 0;
}

size_t jobspec_instance_considered(const jobspec_instance* instance) {
    if (instance == nullptr)
        return 0;
    std::size_t n = 0;
    for (const auto& job : instance->state.pending) {
        bool started = true;
        for (const auto& q : instance->state.queues)
            if (q.name == job.queue)
                started = q.started;
        n += job.state == jobspec::PendingState::sched && job.priority > 0 &&
             job.urgency > 0 && started;
    }
    return n;
}

char* jobspec_instance_json(const jobspec_instance* instance, double now) {
    return guarded<char*>(nullptr, [&]() -> char* {
        if (instance == nullptr)
            return nullptr;
        jobspec::InstanceState state = instance->state;
        state.now = now;
        return new_text(jobspec::to_json_text(jobspec::instance_state_to_json(state)));
    });
}

jobspec_forecast* jobspec_forecast_start(const jobspec_instance* instance, double now) {
    return guarded<jobspec_forecast*>(nullptr, [&]() -> jobspec_forecast* {
        if (instance == nullptr)
            return nullptr;
        auto state = std::make_shared<jobspec::InstanceState>(instance->state);
        state->now = now;
        jobspec::ForecastOptions options;
        options.max_steps = instance->max_steps;
        options.explained = instance->explained;
        return new jobspec_forecast{jobspec::ForecastRun(std::move(state), options), {}};
    });
}

void jobspec_forecast_free(jobspec_forecast* forecast) {
    delete forecast;
}

bool jobspec_forecast_advance(jobspec_forecast* forecast, uint64_t steps) {
    return guarded(true, [&] {
        if (forecast == nullptr)
            return true;
        const bool done = forecast->run.advance(steps);
        if (done && forecast->verdicts.empty())
            for (const auto& job : forecast->run.result().jobs)
                forecast->verdicts.emplace_back(jobspec::verdict_name(job.verdict));
        return done;
    });
}

size_t jobspec_forecast_count(const jobspec_forecast* forecast) {
    return forecast != nullptr && forecast->run.done() ? forecast->run.result().jobs.size() : 0;
}

uint64_t jobspec_forecast_id(const jobspec_forecast* forecast, size_t i) {
    return i < jobspec_forecast_count(forecast) ? forecast->run.result().jobs[i].id : 0;
}

const char* jobspec_forecast_verdict(const jobspec_forecast* forecast, size_t i) {
    return i < jobspec_forecast_count(forecast) && i < forecast->verdicts.size()
               ? forecast->verdicts[i].c_str()
               : "unknown";
}

double jobspec_forecast_eta(const jobspec_forecast* forecast, size_t i) {
    if (i >= jobspec_forecast_count(forecast))
        return 0;
    const auto& start = forecast->run.result().jobs[i].start;
    return start ? *start : 0;
}

char* jobspec_forecast_reason(const jobspec_forecast* forecast, size_t i) {
    return guarded<char*>(nullptr, [&]() -> char* {
        if (i >= jobspec_forecast_count(forecast))
            return new_text("");
        return new_text(jobspec::forecast_reason(forecast->run.result().jobs[i],
                                                 forecast->run.state()));
    });
}

char* jobspec_forecast_json(const jobspec_forecast* forecast, const jobspec_options* options) {
    return guarded<char*>(nullptr, [&]() -> char* {
        if (forecast == nullptr || !forecast->run.done())
            return nullptr;
        return new_text(jobspec::to_json_text(
            jobspec::forecast_to_json(forecast->run.result(), forecast->run.state()),
            options_or_default(options).pretty));
    });
}

char* jobspec_forecast_head_json(const jobspec_forecast* forecast) {
    return guarded<char*>(nullptr, [&]() -> char* {
        if (forecast == nullptr || !forecast->run.done())
            return nullptr;
        return new_text(one_line(jobspec::to_json_text(
            jobspec::forecast_head_to_json(forecast->run.result(), forecast->run.state()))));
    });
}

char* jobspec_forecast_job_json(const jobspec_forecast* forecast, size_t i, unsigned flags) {
    return guarded<char*>(nullptr, [&]() -> char* {
        if (i >= jobspec_forecast_count(forecast))
            return nullptr;
        jobspec::ForecastTextOptions o;
        o.ascii_ids = (flags & JOBSPEC_FORECAST_ASCII_IDS) != 0;
        auto job = jobspec::job_forecast_to_json(forecast->run.result().jobs[i],
                                                 forecast->run.state(), o);
        if ((flags & JOBSPEC_FORECAST_NO_DIAGNOSTICS) != 0)
            job.as_object()["diagnostics"] = boost::json::array();
        return new_text(one_line(jobspec::to_json_text(job)));
    });
}

} // extern "C"
