// The forecast's writers: a line for people, the short reason flux jobs shows, and JSON.
#include <jobspec/forecast_text.hpp>

#include <cmath>
#include <ctime>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <jobspec/emit.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/render.hpp>
#include <jobspec/text.hpp>

namespace jobspec {

namespace {

namespace json = boost::json;

/// A job id as people read it.
std::string job_name(std::uint64_t id, const ForecastTextOptions& o) {
    return encode_fluid(id, o.ascii_ids ? FluidEncoding::f58plain : FluidEncoding::f58);
}

std::string job_names(const std::vector<std::uint64_t>& ids, const ForecastTextOptions& o,
                      std::size_t most = 3) {
    std::string out;
    for (std::size_t i = 0; i < ids.size() && i < most; ++i)
        out += (i > 0 ? (i + 1 == ids.size() || i + 1 == most ? " and " : ", ") : "") +
               job_name(ids[i], o);
    if (ids.size() > most)
        out += fmt::format(" and {} more", ids.size() - most);
    return out;
}

/// The hosts of `ranks` (of R), as R names them; "rank[...]" when R names no hosts.
std::string host_names(const InstanceState& s, const IdSet& ranks) {
    if (ranks.empty())
        return {};
    const Hostlist names = s.all.filtered(ranks).nodelist();
    return names.empty() ? "rank" + ranks.format() : names.encode();
}

/// host_names, escaped for a terminal.
std::string hosts(const InstanceState& s, const IdSet& ranks) {
    return visible_text(host_names(s, ranks));
}

/// "14:05:07" today (in the forecast's day), else "2026-11-30 14:05".
std::string when(double t, double now, const ForecastTextOptions& o) {
    const std::time_t at = static_cast<std::time_t>(std::ceil(t));
    const std::time_t base = static_cast<std::time_t>(now);
    std::tm a{};
    std::tm b{};
    if (o.utc) {
        gmtime_r(&at, &a);
        gmtime_r(&base, &b);
    } else {
        localtime_r(&at, &a);
        localtime_r(&base, &b);
    }
    char text[32];
    const bool today = a.tm_year == b.tm_year && a.tm_yday == b.tm_yday;
    std::strftime(text, sizeof text, today ? "%H:%M:%S" : "%Y-%m-%d %H:%M", &a);
    return text;
}

/// How the down ranks are down: "drained fake0 (maintenance)", "down fake3", joined.
std::string down_words(const InstanceState& s, const IdSet& ranks) {
    std::string drained, down;
    for (const std::uint64_t r : ranks) {
        const IdSet one = IdSet::range(r, r);
        const auto it = s.drained.find(r);
        std::string& into = it != s.drained.end() ? drained : down;
        into += (into.empty() ? "" : ", ") + hosts(s, one);
        if (it != s.drained.end() && !it->second.empty())
            into += " (" + visible_text(it->second) + ")";
    }
    std::string out;
    if (!drained.empty())
        out = "drained " + drained;
    if (!down.empty())
        out += (out.empty() ? "down " : " and down ") + down;
    return out;
}

/// "no estimate until it is undrained" (or "... they are back up"), for `ranks`.
std::string until_words(const InstanceState& s, const IdSet& ranks) {
    bool all_drained = true;
    for (const std::uint64_t r : ranks)
        all_drained = all_drained && s.drained.count(r) != 0;
    return std::string("no estimate until ") + (ranks.count() == 1 ? "it is " : "they are ") +
           (all_drained ? "undrained" : "back up");
}

const PendingJob* pending_of(const InstanceState& s, std::uint64_t id) {
    for (const auto& p : s.pending)
        if (p.id == id)
            return &p;
    return nullptr;
}

std::string held_words(const PendingJob& p) {
    if (p.state == PendingState::priority)
        return "held: waiting for a priority";
    return p.urgency == 0 ? "held: urgency 0 (flux job urgency ID default releases it)"
                          : "held: priority 0 (a priority plugin holds it)";
}

std::string blocked_words(const InstanceState& s, const PendingJob& p) {
    if (p.state == PendingState::depend) {
        std::string deps;
        for (const auto& d : p.dependencies)
            deps += (deps.empty() ? "" : ", ") + visible_text(d);
        return "blocked: waiting for " + (deps.empty() ? std::string("a dependency") : deps);
    }
    std::string reason;
    for (const auto& q : s.queues)
        if (q.name == p.queue)
            reason = q.stop_reason;
    return (p.queue.empty() ? std::string("blocked: the default queue is stopped")
                            : "blocked: queue " + visible_text(p.queue) + " is stopped") +
           (reason.empty() ? "" : ": " + visible_text(reason));
}

/// Why a job that does not start has no estimate, as a clause: "drained fake0 ...".
std::string no_estimate_words(const JobForecast& f, const InstanceState& s,
                              const ForecastTextOptions& o) {
    switch (f.no_estimate) {
    case NoEstimate::down:
        return "waits for " + down_words(s, f.down_needed) + ": " +
               until_words(s, f.down_needed);
    case NoEstimate::unending:
        return f.after.empty() ? std::string("what it needs is held for ever: no estimate")
                               : "it waits for " + job_names(f.after, o) +
                                     (f.after.size() == 1 ? ", which has" : ", which have") +
                                     " no time limit: no estimate";
    default:
        return {};
    }
}

/// What the job it waits behind waits for, as a clause.
std::string behind_words(const JobForecast& f, const InstanceState& s,
                         const ForecastTextOptions& o) {
    const std::string ahead = f.waits_behind.empty() ? "a job" : job_name(f.waits_behind[0], o);
    if (f.verdict == Verdict::down)
        return "waits behind " + ahead + ", which waits for " + down_words(s, f.down_needed) +
               ": " + until_words(s, f.down_needed);
    if (!f.after.empty())
        return "waits behind " + ahead + ", which waits for " + job_names(f.after, o) +
               (f.after.size() == 1 ? ", which has" : ", which have") +
               " no time limit: no estimate";
    return "waits behind " + ahead +
           ", which never starts (the scheduler keeps it in line): no estimate until it is "
           "cancelled";
}

std::string first_error(const Diagnostics& d) {
    return render_line(d, 0, 1);
}

std::string_view state_name(PendingState s) {
    return s == PendingState::sched ? "sched" : s == PendingState::depend ? "depend" : "priority";
}

/// A Fluxion queue's setup as qmanager's params strings.
json::object fluxion_params(const FluxionQueue& q) {
    static constexpr std::string_view policies[] = {"fcfs", "easy", "hybrid", "conservative"};
    json::object o;
    o["queue-policy"] = policies[static_cast<std::size_t>(q.policy)];
    o["queue-params"] = fmt::format("queue-depth={}", q.queue_depth);
    o["policy-params"] =
        q.policy == FluxionPolicy::hybrid ? fmt::format("reservation-depth={}", q.reservation_depth)
        : q.policy == FluxionPolicy::conservative
            ? fmt::format("max-reservation-depth={}", q.reservation_depth)
            : std::string();
    return o;
}

json::object scheduler_json(const SchedulerSetup& s) {
    json::object o;
    o["name"] = s.name;
    if (s.kind == SchedulerKind::fifo || s.kind == SchedulerKind::backfill)
        o["args"] = json::array{s.queue_depth == 0 ? std::string("queue-depth=unlimited")
                                                   : fmt::format("queue-depth={}", s.queue_depth)};
    if (s.kind == SchedulerKind::fluxion) {
        json::object params;
        for (const auto& [name, q] : s.fluxion_queues) {
            if (name == "default")
                for (auto& [k, v] : fluxion_params(q))
                    params[k] = v;
            else
                params[name] = fluxion_params(q);
        }
        o["fluxion"] = json::object{{"params", std::move(params)}};
    }
    return o;
}

} // namespace

json::value instance_state_to_json(const InstanceState& s) {
    json::object out;
    out["now"] = s.now;
    out["R"] = to_json_value(s.all);
    out["expiration"] = s.expiration;
    out["down"] = s.down.format();
    json::object drained;
    for (const auto& [rank, reason] : s.drained)
        drained[std::to_string(rank)] = reason;
    out["drained"] = std::move(drained);
    out["scheduler"] = scheduler_json(s.scheduler);
    json::object queues;
    for (const auto& q : s.queues)
        queues[q.name] = json::object{{"start", q.started}, {"stop_reason", q.stop_reason}};
    out["queues"] = std::move(queues);
    if (!s.config_json.empty()) {
        boost::system::error_code ec;
        auto config = json::parse(s.config_json, ec);
        if (!ec)
            out["config"] = std::move(config);
    }
    json::array running;
    for (const auto& r : s.running) {
        json::object j{{"id", r.id}, {"R", to_json_value(r.r)}, {"expiration", r.end.value_or(0)}};
        running.emplace_back(std::move(j));
    }
    out["running"] = std::move(running);
    json::array pending;
    for (const auto& p : s.pending) {
        json::array deps;
        for (const auto& d : p.dependencies)
            deps.emplace_back(d);
        json::object j{{"id", p.id},
                       {"state", state_name(p.state)},
                       {"priority", p.priority},
                       {"urgency", p.urgency},
                       {"t_submit", p.t_submit},
                       {"queue", p.queue},
                       {"dependencies", std::move(deps)},
                       {"jobspec", p.jobspec ? to_json_value(*p.jobspec) : json::value(nullptr)}};
        pending.emplace_back(std::move(j));
    }
    out["pending"] = std::move(pending);
    return out;
}

std::string_view verdict_name(Verdict verdict) noexcept {
    switch (verdict) {
    case Verdict::held:
        return "held";
    case Verdict::blocked:
        return "blocked";
    case Verdict::next:
        return "next";
    case Verdict::waiting:
        return "waiting";
    case Verdict::down:
        return "down";
    case Verdict::never:
        return "never";
    case Verdict::unknown:
        break;
    }
    return "unknown";
}

std::string forecast_summary(const JobForecast& f, const InstanceState& s,
                             const ForecastTextOptions& o) {
    const PendingJob* p = pending_of(s, f.id);
    switch (f.verdict) {
    case Verdict::held:
        return p != nullptr ? held_words(*p) : "held";
    case Verdict::blocked:
        return p != nullptr ? blocked_words(s, *p) : "blocked";
    case Verdict::next:
        return "next: the scheduler starts it now, on " + hosts(s, f.nodes);
    case Verdict::never: {
        std::string out = "never on this instance" +
                          (!f.diagnostics.empty() ? ": " + first_error(f.diagnostics)
                           : f.after.empty()      ? std::string(": the scheduler refuses it")
                                                  : ": the scheduler refuses it while " +
                                                   job_names(f.after, o) +
                                                   (f.after.size() == 1 ? " (no time limit) holds" : " (no time limit) hold") +
                                                   " the nodes it allows");
        if (f.kept)
            out += "; the scheduler keeps it in line, and the jobs behind it wait";
        return out;
    }
    case Verdict::unknown:
        return f.diagnostics.empty()
                   ? "cannot tell: " + visible_text(s.scheduler.name) +
                         "'s order is not known to jobspec"
                   : "cannot tell: " + first_error(f.diagnostics);
    case Verdict::waiting:
    case Verdict::down:
        break;
    }
    if (f.start) {
        std::string out = "starts by " + when(*f.start, s.now, o) + " (estimated, on " +
                          hosts(s, f.nodes);
        if (!f.waits_behind.empty())
            out += ", behind " + job_names(f.waits_behind, o);
        if (!f.after.empty())
            out += ", after " + job_names(f.after, o) + (f.after.size() == 1 ? " ends" : " end");
        return out + ")";
    }
    if (f.no_estimate == NoEstimate::behind)
        return behind_words(f, s, o);
    if (f.no_estimate == NoEstimate::unknown)
        return "it fits, but " + visible_text(s.scheduler.name) +
               "'s order is not known to jobspec: no estimate";
    return no_estimate_words(f, s, o);
}

std::string forecast_lines(const Forecast& f, const InstanceState& s,
                           const ForecastTextOptions& o) {
    std::string lines;
    if (!f.order_unknown.empty())
        lines += "(" + f.order_unknown + ")\n";
    for (const auto& job : f.jobs)
        lines += job_name(job.id, o) + "  " + forecast_summary(job, s, o) + "\n";
    return lines;
}

std::string forecast_reason(const JobForecast& f, const InstanceState& s,
                            const ForecastTextOptions& o) {
    std::string out;
    switch (f.verdict) {
    case Verdict::held:
    case Verdict::next:
        return {};
    case Verdict::blocked:
        out = forecast_summary(f, s, o);
        break;
    case Verdict::never:
        out = "never: " + render_line(f.diagnostics, forecast_reason_bytes - 7);
        if (f.diagnostics.empty())
            out = f.after.empty() ? "never: the scheduler refuses it"
                                  : "never: refused while " + job_names(f.after, o) +
                                        (f.after.size() == 1 ? " (no time limit) holds its nodes"
                                                           : " (no time limit) hold its nodes");
        break;
    case Verdict::unknown:
        out = "cannot tell";
        break;
    case Verdict::waiting:
    case Verdict::down:
        if (f.start)
            out = "starts by " + when(*f.start, s.now, o) + " on " + hosts(s, f.nodes);
        else if (f.no_estimate == NoEstimate::behind)
            out = "waits behind " +
                  (f.waits_behind.empty() ? std::string("a job")
                                          : job_name(f.waits_behind[0], o)) +
                  (f.verdict == Verdict::down ? " (" + down_words(s, f.down_needed) + ")"
                                              : std::string());
        else if (f.no_estimate == NoEstimate::down)
            out = "waits for " + down_words(s, f.down_needed);
        else if (f.no_estimate == NoEstimate::unending)
            out = "waits for " + job_names(f.after, o, 2) + " (no time limit)";
        else
            out = "fits; order unknown";
        break;
    }
    if (out.size() > forecast_reason_bytes) { // cut at a character, with "..."
        std::size_t end = forecast_reason_bytes - 3;
        while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80)
            --end;
        out = out.substr(0, end) + "...";
    }
    return out;
}

json::value job_forecast_to_json(const JobForecast& f, const InstanceState& s,
                                 const ForecastTextOptions& o) {
    const PendingJob* p = pending_of(s, f.id);
    json::object j;
    j["id"] = job_name(f.id, o);
    j["queue"] = p != nullptr && !p->queue.empty() ? json::value(p->queue) : nullptr;
    j["verdict"] = verdict_name(f.verdict);
    j["summary"] = forecast_summary(f, s, o);
    j["eta"] = f.start ? json::value(*f.start) : json::value(nullptr);
    static constexpr std::string_view why_none[] = {
        "", "not-scheduled", "down", "unending", "behind", "never", "unknown"};
    if (!f.start)
        j["no_estimate"] = why_none[static_cast<std::size_t>(f.no_estimate)];
    json::array behind, after;
    for (const auto id : f.waits_behind)
        behind.emplace_back(job_name(id, o));
    for (const auto id : f.after)
        after.emplace_back(job_name(id, o));
    j["waits_behind"] = std::move(behind);
    j["after"] = std::move(after);
    j["nodes"] = f.nodes.empty() ? json::value(nullptr) : json::value(host_names(s, f.nodes));
    json::object down;
    for (const std::uint64_t r : f.down_needed) {
        const auto it = s.drained.find(r);
        down[host_names(s, IdSet::range(r, r))] =
            it == s.drained.end()
                ? std::string("down")
                : "drained: " + (it->second.empty() ? std::string("no reason given")
                                                    : it->second);
    }
    j["down_nodes"] = std::move(down);
    j["kept"] = f.kept;
    j["diagnostics"] = diagnostics_to_json(f.diagnostics, {});
    return j;
}

json::object forecast_head_to_json(const Forecast& forecast, const InstanceState& s) {
    json::object out;
    out["now"] = forecast.now;
    out["scheduler"] = s.scheduler.name;
    if (!forecast.order_unknown.empty())
        out["order_unknown"] = forecast.order_unknown;
    return out;
}

json::value forecast_to_json(const Forecast& forecast, const InstanceState& s,
                             const ForecastTextOptions& o) {
    json::array jobs;
    for (const auto& f : forecast.jobs)
        jobs.emplace_back(job_forecast_to_json(f, s, o));
    json::object out = forecast_head_to_json(forecast, s);
    out["jobs"] = std::move(jobs);
    return out;
}

} // namespace jobspec
