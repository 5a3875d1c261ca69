// resolve_workflow: RFC 26's OpenMP-style and after* rules over jobs in submission order.
#include <jobspec/workflow_graph.hpp>

#include <map>
#include <queue>
#include <set>

#include <fmt/format.h>

#include "model/decoders.hpp"
#include <jobspec/fluid.hpp>

namespace jobspec {

namespace {

bool is_after(std::string_view scheme) {
    return scheme == "after" || scheme == "afterstart" || scheme == "afterany" ||
           scheme == "afterok" || scheme == "afternotok" || scheme == "afterexcept";
}

bool is_openmp(std::string_view scheme) {
    return scheme == "string" || scheme == "fluid";
}

std::string_view option_or(const Dependency& d, std::string_view key, std::string_view fallback) {
    const DependencyOption* o = d.option(key);
    return o != nullptr ? o->text() : fallback;
}

/// A job that declared `out` or `inout` for a value, and who may see it.
struct Producer {
    std::size_t job;
    std::string user;
    bool global;
};

class Resolver {
public:
    explicit Resolver(std::vector<WorkflowJob> jobs) { out_.jobs = std::move(jobs); }

    Result<Workflow> run() {
        const std::size_t listed = out_.jobs.size();
        for (std::size_t i = 0; i < listed; ++i)
            if (out_.jobs[i].id)
                by_id_.emplace(*out_.jobs[i].id, i);
        bool openmp = false;
        for (const auto& job : out_.jobs)
            for (const auto& d : job.dependencies)
                openmp = openmp || is_openmp(d.scheme);
        for (std::size_t j = 0; j < listed; ++j) {
            std::vector<Dependency> deps = out_.jobs[j].dependencies;
            if (openmp && out_.jobs[j].id) {
                Dependency automatic;
                automatic.scheme = "fluid";
                automatic.value = std::to_string(*out_.jobs[j].id);
                // A job's id is public: the automatic out reaches every scope.
                automatic.options = {{"type", "out", {}, {}}, {"scope", "global", {}, {}}};
                deps.push_back(std::move(automatic));
            }
            for (const auto& d : deps)
                if (is_openmp(d.scheme) && option_or(d, "type", "") != "out")
                    consume(j, d);
            for (const auto& d : deps) {
                if (is_after(d.scheme))
                    after(j, d);
                else if (is_openmp(d.scheme) && option_or(d, "type", "") != "in")
                    produce(j, d);
            }
        }
        return order();
    }

private:
    /// The value as a key: fluid values by the number they decode to.
    static std::string key(const Dependency& d) {
        if (d.scheme == "fluid")
            if (auto id = model::decode_fluid(d.value))
                return "fluid:" + std::to_string(id->id);
        return d.scheme + ":" + d.value;
    }

    bool visible(const Producer& p, std::size_t j, bool in_global) const {
        const bool same_user = p.user == out_.jobs[j].user;
        return (p.global || same_user) && (in_global || same_user);
    }

    void edge(std::size_t from, std::size_t to, const Dependency& d) {
        if (from == to)
            return;
        for (const auto& e : out_.edges)
            if (e.from == from && e.to == to && e.scheme == d.scheme && e.value == d.value)
                return;
        out_.edges.push_back({from, to, d.scheme, d.value});
    }

    void consume(std::size_t j, const Dependency& d) {
        const bool global = option_or(d, "scope", "user") == "global";
        for (const auto& p : producers_[key(d)])
            if (visible(p, j, global))
                edge(p.job, j, d);
    }

    void produce(std::size_t j, const Dependency& d) {
        const bool global = option_or(d, "scope", "user") == "global";
        auto& list = producers_[key(d)];
        if (option_or(d, "type", "") == "inout")
            std::erase_if(list, [&](const Producer& p) { return visible(p, j, global); });
        list.push_back({j, out_.jobs[j].user, global});
    }

    void after(std::size_t j, const Dependency& d) {
        const auto id = model::decode_fluid(d.value);
        if (!id)
            return;
        auto it = by_id_.find(id->id);
        if (it == by_id_.end()) {
            WorkflowJob external;
            external.name = encode_fluid(id->id, FluidEncoding::f58);
            external.id = id->id;
            external.external = true;
            out_.jobs.push_back(std::move(external));
            it = by_id_.emplace(id->id, out_.jobs.size() - 1).first;
        }
        edge(it->second, j, d);
    }

    /// Kahn's algorithm, taking ready jobs in submission order.
    Result<Workflow> order() {
        const std::size_t n = out_.jobs.size();
        std::vector<std::size_t> waiting(n, 0);
        std::vector<std::vector<std::size_t>> next(n);
        for (const auto& e : out_.edges) {
            ++waiting[e.to];
            next[e.from].push_back(e.to);
        }
        std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
        for (std::size_t i = 0; i < n; ++i)
            if (waiting[i] == 0)
                ready.push(i);
        while (!ready.empty()) {
            const std::size_t j = ready.top();
            ready.pop();
            out_.order.push_back(j);
            for (const std::size_t k : next[j])
                if (--waiting[k] == 0)
                    ready.push(k);
        }
        if (out_.order.size() == n)
            return std::move(out_);
        std::string stuck;
        for (std::size_t i = 0; i < n; ++i)
            if (waiting[i] > 0)
                stuck += (stuck.empty() ? "'" : ", '") + out_.jobs[i].name + "'";
        Diagnostics d;
        d.add(Code::dependency_cycle, fmt::format("jobs wait for each other in a cycle: {}", stuck),
              {}, "an after* dependency on a job submitted later closes the loop");
        return Result<Workflow>(std::move(d));
    }

    Workflow out_;
    std::map<std::uint64_t, std::size_t> by_id_;
    std::map<std::string, std::vector<Producer>> producers_;
};

} // namespace

Result<Workflow> resolve_workflow(std::vector<WorkflowJob> jobs) {
    return Resolver(std::move(jobs)).run();
}

} // namespace jobspec
