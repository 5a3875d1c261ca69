// allocate: the jobspec onto R (its queue's view of it), by sema's first fit.
#include <jobspec/feasibility.hpp>

#include <fmt/format.h>

#include "model/codecs.hpp"
#include "sema/first_fit.hpp"

namespace jobspec {

namespace {

/// R with the queue's membership property on its hosts (RFC 33), or why not.
Result<ResourceSet> with_members(const ResourceSet& r, const Queue& queue) {
    ResourceSet out = r;
    IdSet members = r.ranks();
    if (*queue.hosts != "all") {
        auto hosts = model::decode_hostlist(*queue.hosts);
        Diagnostics d;
        if (!hosts) {
            d.add(Code::match_queue, fmt::format("queue '{}': hosts '{}' is not a hostlist: {}",
                                                 queue.name, *queue.hosts, hosts.error().message));
            return Result<ResourceSet>(std::move(d));
        }
        members = r.ranks_of(*hosts);
        if (members.count() != hosts->count()) {
            d.add(Code::match_queue,
                  fmt::format("queue '{}': hosts '{}' names hosts R does not have", queue.name,
                              *queue.hosts));
            return Result<ResourceSet>(std::move(d));
        }
    }
    out.set_property(queue.membership, members);
    return out;
}

} // namespace

Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r,
                             const AllocateOptions& options) {
    sema::Ground ground;
    ground.free = options.free ? &*options.free : nullptr;
    if (!options.queue)
        return sema::first_fit(jobspec, r, options.dialect, ground);
    const Queue& queue = *options.queue;
    Constraint also{"properties", queue.properties, {}};
    if (queue.hosts)
        also.values.push_back(queue.membership);
    ground.also = also.values.empty() ? nullptr : &also;
    ground.also_from = fmt::format("queue '{}'", queue.name);
    if (!queue.hosts)
        return sema::first_fit(jobspec, r, options.dialect, ground);
    auto members = with_members(r, queue);
    if (!members.ok())
        return members;
    return sema::first_fit(jobspec, members.value(), options.dialect, ground);
}

Result<std::optional<Queue>> queue_of(const Jobspec& jobspec, std::string_view path,
                                      std::string_view named, const Limits& limits) {
    const auto& system = jobspec.attributes.system;
    const std::string* own = system ? system->get<std::string>("queue") : nullptr;
    return read_queue_at(path, !named.empty() || own == nullptr ? named : *own, limits);
}

Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r, Dialect dialect) {
    return sema::first_fit(jobspec, r, dialect);
}

} // namespace jobspec
