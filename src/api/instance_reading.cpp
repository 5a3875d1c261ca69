// read_instance_state: an instance's state as JSON (docs/FORMATS.md), read once, every
// jobspec in it lowered and checked from its place in the tree.
#include <jobspec/forecast.hpp>

#include <cmath>

#include <fmt/format.h>

#include <jobspec/fluid.hpp>

#include "api/jobspec_reading.hpp"
#include "lower/resource_set_lowering.hpp"
#include "support/json_pointer.hpp"
#include "support/json_text.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

namespace {

using syntax::DocMember;
using syntax::DocNode;

/// Reads the members of an instance's state, each problem a forecast.instance error at
/// its JSON pointer.
class Reader {
public:
    Reader(const ReadOptions& read, Diagnostics& d, const ResourceSet* r)
        : read_(read), d_(d), r_(r) {}

    std::optional<InstanceState> state(const DocNode& root) {
        if (!root.is_mapping()) {
            fail("", "an instance's state is a JSON object");
            return std::nullopt;
        }
        InstanceState s;
        s.now = number(root, "now", "").value_or(0);
        if (root.find("now") == nullptr)
            fail("/now", "'now' (seconds since the epoch) is missing");
        if (r_ != nullptr) {
            s.all = *r_;
        } else if (const auto* r = root.find("R")) {
            Diagnostics found;
            s.all = lower::lower_resource_set(r->value, found);
            relay(found, "/R");
        } else {
            fail("/R", "'R', the instance's resources, is missing");
        }
        s.expiration = number(root, "expiration", "").value_or(s.all.expiration);
        if (const auto* down = root.find("down"))
            s.down = idset(down->value, "/down");
        if (const auto* drained = root.find("drained"))
            read_drained(drained->value, s);
        if (const auto* scheduler = root.find("scheduler"))
            s.scheduler = read_scheduler(scheduler->value);
        if (const auto* queues = root.find("queues"))
            read_queues(queues->value, s);
        if (const auto* config = root.find("config")) {
            if (!config->value.is_mapping())
                fail("/config", "'config' is the instance's configuration, an object");
            else if (config->value.find("queues") != nullptr)
                s.config_json = support::json_text(config->value.to_json());
        }
        if (const auto* running = root.find("running"))
            read_running(running->value, s);
        if (const auto* pending = root.find("pending"))
            read_pending(pending->value, s);
        return s;
    }

private:
    void fail(std::string pointer, std::string message) {
        d_.add(Code::forecast_instance, std::move(message), Location{{}, std::move(pointer)});
    }

    /// Diagnostics of a part (R, a jobspec), their pointers under `at`.
    void relay(const Diagnostics& found, std::string_view at) {
        for (Diagnostic x : found) {
            x.location.pointer = std::string(at) + x.location.pointer;
            x.location.range = {};
            d_.add(std::move(x));
        }
    }

    std::optional<double> number(const DocNode& n, std::string_view key, std::string_view at) {
        const DocMember* m = n.find(key);
        if (m == nullptr)
            return std::nullopt;
        const DocNode& v = m->value;
        const double x = v.kind() == DocNode::Kind::integer    ? static_cast<double>(v.integer())
                         : v.kind() == DocNode::Kind::uinteger ? static_cast<double>(v.uinteger())
                         : v.kind() == DocNode::Kind::real     ? v.real()
                                                               : NAN;
        if (!std::isfinite(x)) {
            fail(fmt::format("{}/{}", at, key), fmt::format("'{}' is a number", key));
            return std::nullopt;
        }
        return x;
    }

    std::optional<std::string> text(const DocNode& n, std::string_view key, std::string_view at) {
        const DocMember* m = n.find(key);
        if (m == nullptr || m->value.kind() == DocNode::Kind::null)
            return std::nullopt;
        if (!m->value.is_string()) {
            fail(fmt::format("{}/{}", at, key), fmt::format("'{}' is a string", key));
            return std::nullopt;
        }
        return m->value.text();
    }

    IdSet idset(const DocNode& n, const std::string& at) {
        if (!n.is_string()) {
            fail(at, "an idset is a string (\"0-3,7\")");
            return {};
        }
        auto ids = IdSet::parse(n.text());
        if (!ids.ok()) {
            fail(at, fmt::format("'{}' is not an idset", n.text()));
            return {};
        }
        return std::move(ids).value();
    }

    /// A job id: an integer, or any encoding flux names ids in ("ƒ2ZDpfw2").
    std::uint64_t job_id(const DocNode& job, const std::string& at) {
        const DocMember* m = job.find("id");
        if (m != nullptr && m->value.kind() == DocNode::Kind::uinteger)
            return m->value.uinteger();
        if (m != nullptr && m->value.kind() == DocNode::Kind::integer && m->value.integer() >= 0)
            return static_cast<std::uint64_t>(m->value.integer());
        if (m != nullptr && m->value.is_string())
            if (auto id = parse_fluid(m->value.text()); id.ok())
                return id.value().id;
        fail(at + "/id", "a job's 'id' is a job id (an integer or an F58 string)");
        return 0;
    }

    /// resource.status's drain map: {"IDSET": {"reason": ..., "timestamp": ...}} (or the
    /// reason alone).
    void read_drained(const DocNode& n, InstanceState& s) {
        if (!n.is_mapping()) {
            fail("/drained", "'drained' maps idsets to drain reasons");
            return;
        }
        for (const auto& m : n.members()) {
            support::JsonPointer pointer("/drained");
            pointer.push(m.key);
            const std::string& at = pointer.str();
            const IdSet ranks = idset(DocNode::of(m.key), at);
            std::string reason;
            if (m.value.is_string())
                reason = m.value.text();
            else if (m.value.is_mapping())
                reason = text(m.value, "reason", at).value_or("");
            for (const auto r : ranks) {
                s.drained[r] = reason;
                s.down.insert(r);
            }
        }
    }

    SchedulerSetup read_scheduler(const DocNode& n) {
        if (!n.is_mapping()) {
            fail("/scheduler", "'scheduler' is {\"name\": MODULE, \"args\": [...]}");
            return {};
        }
        const std::string name = text(n, "name", "/scheduler").value_or("sched-simple");
        std::vector<std::string> args;
        if (const auto* a = n.find("args")) {
            if (a->value.is_sequence())
                for (const auto& e : a->value.elements())
                    if (e.is_string())
                        args.push_back(e.text());
        }
        const DocMember* fluxion = n.find("fluxion");
        const boost::json::value params = fluxion != nullptr ? fluxion->value.to_json()
                                                             : boost::json::value(nullptr);
        return scheduler_setup(name, args, fluxion != nullptr ? &params : nullptr);
    }

    /// {"NAME": {"start": bool, "stop_reason": "..."}} (job-manager.queue-status answers),
    /// "" for the anonymous queue.
    void read_queues(const DocNode& n, InstanceState& s) {
        if (!n.is_mapping()) {
            fail("/queues", "'queues' maps queue names to their status");
            return;
        }
        for (const auto& m : n.members()) {
            QueueStatus q;
            q.name = m.key;
            if (m.value.is_mapping()) {
                if (const auto* start = m.value.find("start");
                    start != nullptr && start->value.kind() == DocNode::Kind::boolean)
                    q.started = start->value.boolean();
                q.stop_reason = text(m.value, "stop_reason", "/queues").value_or("");
            }
            s.queues.push_back(std::move(q));
        }
    }

    void read_running(const DocNode& n, InstanceState& s) {
        if (!n.is_sequence()) {
            fail("/running", "'running' is a list of jobs");
            return;
        }
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            const DocNode& job = n.elements()[i];
            const std::string at = fmt::format("/running/{}", i);
            if (!job.is_mapping()) {
                fail(at, "a running job is an object");
                continue;
            }
            RunningJob r;
            r.id = job_id(job, at);
            if (const auto* R = job.find("R")) {
                Diagnostics found;
                r.r = lower::lower_resource_set(R->value, found);
                relay(found, at + "/R");
            } else if (const auto* ranks = job.find("ranks")) { // job-list's: whole ranks
                r.r = s.all.filtered(idset(ranks->value, at + "/ranks"));
            } else {
                fail(at, "a running job has its 'R' (or its 'ranks')");
            }
            const double end = number(job, "expiration", at).value_or(0);
            if (end > 0)
                r.end = end;
            s.running.push_back(std::move(r));
        }
    }

    static std::optional<PendingState> state_named(const DocNode& v) {
        if (v.is_string()) {
            const std::string& t = v.text();
            if (t == "sched" || t == "SCHED")
                return PendingState::sched;
            if (t == "depend" || t == "DEPEND")
                return PendingState::depend;
            if (t == "priority" || t == "PRIORITY")
                return PendingState::priority;
            return std::nullopt;
        }
        // job-list's state masks (RFC 21): DEPEND 2, PRIORITY 4, SCHED 8.
        const std::uint64_t mask = v.kind() == DocNode::Kind::uinteger  ? v.uinteger()
                                   : v.kind() == DocNode::Kind::integer ? static_cast<std::uint64_t>(v.integer())
                                                                        : 0;
        return mask == 2   ? std::optional(PendingState::depend)
               : mask == 4 ? std::optional(PendingState::priority)
               : mask == 8 ? std::optional(PendingState::sched)
                           : std::nullopt;
    }

    void read_pending(const DocNode& n, InstanceState& s) {
        if (!n.is_sequence()) {
            fail("/pending", "'pending' is a list of jobs");
            return;
        }
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            const DocNode& job = n.elements()[i];
            const std::string at = fmt::format("/pending/{}", i);
            if (!job.is_mapping()) {
                fail(at, "a pending job is an object");
                continue;
            }
            PendingJob p;
            p.id = job_id(job, at);
            if (const auto* st = job.find("state")) {
                if (auto named = state_named(st->value))
                    p.state = *named;
                else
                    fail(at + "/state", "a pending job's state is sched, depend or priority");
            }
            p.priority = static_cast<std::int64_t>(number(job, "priority", at).value_or(16));
            p.urgency = static_cast<std::uint32_t>(number(job, "urgency", at).value_or(16));
            p.t_submit = number(job, "t_submit", at).value_or(0);
            p.queue = text(job, "queue", at).value_or("");
            if (const auto* deps = job.find("dependencies"); deps && deps->value.is_sequence())
                for (const auto& d : deps->value.elements())
                    if (d.is_string())
                        p.dependencies.push_back(d.text());
            if (const auto* js = job.find("jobspec")) {
                auto read = api::jobspec_from_tree(js->value, {}, read_, Diagnostics{});
                if (read.ok()) {
                    p.jobspec = std::make_shared<const Jobspec>(std::move(read).value());
                    if (p.queue.empty()) // the queue the job was submitted to
                        if (const auto& system = p.jobspec->attributes.system)
                            if (const auto* q = system->get<std::string>("queue"))
                                p.queue = *q;
                } else {
                    p.problem = read.diagnostics();
                }
            } else if (p.state == PendingState::sched) {
                fail(at, "a pending job has its 'jobspec'");
            }
            s.pending.push_back(std::move(p));
        }
    }

    const ReadOptions& read_;
    Diagnostics& d_;
    const ResourceSet* r_;
};

Result<InstanceState> from_tree(const DocNode& root, const ReadOptions& read, Diagnostics d,
                                const ResourceSet* r = nullptr) {
    Reader reader(read, d, r);
    auto state = reader.state(root);
    if (!state || d.has_errors())
        return Result<InstanceState>(std::move(d));
    return {std::move(*state), std::move(d)};
}

} // namespace

Result<InstanceState> read_instance_state(std::string_view text, const ReadOptions& read,
                                          const ResourceSet* r) {
    Diagnostics d(read.limits.max_diagnostics);
    // A jobspec sits three levels down (/pending/N/jobspec): its own depth is the limit.
    Limits limits = read.limits;
    limits.max_depth += 3;
    const auto root = syntax::read_json(text, limits, d);
    if (!root)
        return Result<InstanceState>(std::move(d));
    return from_tree(*root, read, std::move(d), r);
}

Result<InstanceState> instance_state_from_json(const boost::json::value& value,
                                               const ReadOptions& read) {
    return from_tree(DocNode::from_json(value), read, Diagnostics(read.limits.max_diagnostics));
}

} // namespace jobspec
