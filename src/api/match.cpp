// match_jobspec: read the jobspec, find its queue, and place it on R (its queue's view of
// it) by match's first fit.
#include <jobspec/match.hpp>

#include <fmt/format.h>

#include <jobspec/document.hpp>
#include <jobspec/resource_config.hpp>

#include "api/match_counted.hpp"
#include "match/match.hpp"

namespace jobspec {

namespace {

/// R with the queue's membership property on its hosts (RFC 33), or why not.
Result<ResourceSet> with_members(const ResourceSet& r, const Queue& queue) {
    ResourceSet out = r;
    IdSet members = r.ranks();
    if (!queue.hosts->all) {
        const Hostlist& hosts = queue.hosts->list;
        members = r.ranks_of(hosts);
        if (members.count() != hosts.count()) {
            Diagnostics d;
            d.add(Code::match_queue,
                  fmt::format("queue '{}': hosts '{}' names hosts R does not have", queue.name,
                              hosts.encode()));
            return Result<ResourceSet>(std::move(d));
        }
    }
    out.set_property(queue.membership, members);
    return out;
}

/// The queue's requirements added to the ground, and R as the queue sees it.
Result<ResourceSet> place(const Jobspec& jobspec, const ResourceSet& r, const Queue* queue,
                          match::Ground ground) {
    if (queue == nullptr)
        return match::find_allocation(jobspec, r, ground);
    auto properties = queue->properties;
    if (queue->hosts)
        properties.push_back(queue->membership);
    const Constraint also{"properties", std::move(properties)};
    ground.also = also.values().empty() ? nullptr : &also;
    ground.also_from = fmt::format("queue '{}'", queue->name);
    if (!queue->hosts)
        return match::find_allocation(jobspec, r, ground);
    auto members = with_members(r, *queue);
    if (!members.ok())
        return members;
    return match::find_allocation(jobspec, members.value(), ground);
}

/// `then`, its diagnostics after `first`.
Result<ResourceSet> after(Diagnostics first, Result<ResourceSet> then) {
    first.append(then.diagnostics());
    if (!then.ok())
        return Result<ResourceSet>(std::move(first));
    return {std::move(then).value(), std::move(first)};
}

/// match.budget: placing `jobspec` took more steps than `budget` allows.
Result<ResourceSet> over_budget(const Jobspec& jobspec, const match::StepBudget& budget) {
    Diagnostics d;
    d.add(Code::match_budget,
          fmt::format("placing it would take more steps than the {} it may take; it is not "
                      "judged",
                      budget.limit()),
          Location{jobspec.resources.empty() ? SourceRange{} : jobspec.resources.front().range,
                   "/resources"},
          fmt::format("it stopped after {} step{}", budget.used(), budget.used() == 1 ? "" : "s"));
    return Result<ResourceSet>(std::move(d));
}

/// match_jobspec within `budget` (null: no limit).
Result<ResourceSet> placed(const Jobspec& jobspec, const ResourceSet& r,
                           const MatchOptions& options, match::StepBudget* budget) {
    match::Ground ground;
    ground.budget = budget;
    ground.free = options.free ? &*options.free : nullptr;
    if (options.config.empty() && options.config_files.empty())
        return place(jobspec, r, nullptr, ground);
    const auto& system = jobspec.attributes.system;
    const std::string* own = system ? system->get<std::string>("queue") : nullptr;
    const std::string_view name = !options.queue.empty() || own == nullptr ? options.queue : *own;
    auto queue = options.config.empty()
                     ? read_queue(options.config_files, name, options.read.limits)
                     : read_queue_at(options.config, name, options.read.limits);
    if (!queue.ok())
        return Result<ResourceSet>(queue.diagnostics());
    return after(queue.diagnostics(),
                 place(jobspec, r, queue.value() ? &*queue.value() : nullptr, ground));
}

} // namespace

Result<ResourceSet> api::match_counted(const Jobspec& jobspec, const ResourceSet& r,
                                       const MatchOptions& options, std::uint64_t& steps) {
    match::StepBudget budget(options.max_steps.value_or(UINT64_MAX));
    try {
        auto result = placed(jobspec, r, options, &budget);
        steps = budget.used();
        return result;
    } catch (const match::StepBudget::Spent&) {
        steps = budget.limit();
        return over_budget(jobspec, budget);
    }
}

Result<ResourceSet> match_jobspec(const Jobspec& jobspec, const ResourceSet& r,
                                  const MatchOptions& options) {
    if (!options.max_steps)
        return placed(jobspec, r, options, nullptr);
    std::uint64_t steps = 0;
    return api::match_counted(jobspec, r, options, steps);
}

Result<ResourceSet> match_jobspec(std::string_view text, const ResourceSet& r,
                                  const MatchOptions& options) {
    auto jobspec = read_jobspec(text, options.read);
    if (!jobspec.ok())
        return Result<ResourceSet>(jobspec.diagnostics());
    return after(jobspec.diagnostics(), match_jobspec(jobspec.value(), r, options));
}

} // namespace jobspec
