// Set operations on resource sets, rank by rank (RFC 20 has no rule; these are what
// flux-core's `flux R` commands do, see docs/COMPAT.md).
#include <jobspec/resource_set_model.hpp>

#include <fmt/format.h>

#include "model/hostlist_pieces.hpp"
#include "model/resource_set_build.hpp"

namespace jobspec {

using model::Group;
using model::HostPicker;
using model::SetBuilder;

namespace {

/// The properties of `sets` on the ranks of `out`.
void keep_properties(ResourceSet& out, std::initializer_list<const ResourceSet*> sets) {
    const IdSet all = out.ranks();
    for (const auto* set : sets)
        for (const auto& [name, ranks] : set->properties())
            if (IdSet on = ranks.intersected(all); !on.empty())
                out.set_property(name, on);
}

} // namespace

ResourceSet ResourceSet::united(const ResourceSet& other) const {
    // flux-core's union: this set without the other's resources, then the other's added.
    // A rank whose resources here are all in the other set is the other set's rank (its
    // host and properties); otherwise it keeps its host and gains the other's properties.
    SetBuilder result;
    HostPicker mine(*this);
    HostPicker theirs(other);
    IdSet kept; // the ranks of this set that keep their host and properties
    for (const auto& p : model::sweep(groups_, other.groups_)) {
        if (p.a == nullptr) {
            result.add(p.first, p.last, p.b->cores, p.b->gpus, theirs);
            continue;
        }
        const bool covered =
            p.b != nullptr && p.b->cores.includes(p.a->cores) && p.b->gpus.includes(p.a->gpus);
        if (covered) {
            result.add(p.first, p.last, p.b->cores, p.b->gpus, theirs);
            continue;
        }
        kept.insert(p.first, p.last);
        if (p.b == nullptr)
            result.add(p.first, p.last, p.a->cores, p.a->gpus, mine);
        else
            result.add(p.first, p.last, p.a->cores.united(p.b->cores), p.a->gpus.united(p.b->gpus),
                       mine.known() ? mine : theirs);
    }
    ResourceSet out = result.take();
    for (const auto& [name, ranks] : properties_)
        if (IdSet on = ranks.intersected(kept); !on.empty())
            out.set_property(name, on);
    keep_properties(out, {&other});
    const ResourceSet& keyed = scheduling.is_null() ? other : *this;
    out.scheduling = keyed.scheduling;
    out.treepool = keyed.treepool;
    out.fluxion_graph = keyed.fluxion_graph;
    return out;
}

Result<ResourceSet> ResourceSet::appended(const ResourceSet& other) const {
    if (const std::string clash = model::first_clash(*this, other); !clash.empty()) {
        Diagnostics d;
        d.add(Code::R_overlap, clash + " in both resource sets");
        return Result<ResourceSet>(std::move(d));
    }
    return united(other);
}

ResourceSet ResourceSet::intersected(const ResourceSet& other) const {
    SetBuilder result;
    HostPicker mine(*this);
    HostPicker a_compared(*this);
    HostPicker b_compared(other);
    const bool compare_hosts = !nodelist_.empty() && !other.nodelist_.empty();
    for (const auto& p : model::sweep(groups_, other.groups_)) {
        if (p.a == nullptr || p.b == nullptr)
            continue;
        const IdSet cores = p.a->cores.intersected(p.b->cores);
        const IdSet gpus = p.a->gpus.intersected(p.b->gpus);
        if (cores.empty() && gpus.empty())
            continue;
        if (!compare_hosts) {
            result.add(p.first, p.last, cores, gpus, mine);
            continue;
        }
        // A rank whose hosts differ is not the same resource: keep only the ranks that agree.
        Hostlist a_hosts;
        Hostlist b_hosts;
        a_compared.take(p.first, p.last, a_hosts);
        b_compared.take(p.first, p.last, b_hosts);
        for (const auto& same : model::same_host_positions(a_hosts, b_hosts))
            result.add(p.first + same.first, p.first + same.last, cores, gpus, mine);
    }
    ResourceSet out = result.take();
    if (!out.empty()) {
        out.scheduling = scheduling;
        out.treepool = treepool;
        out.fluxion_graph = fluxion_graph;
    }
    return out;
}

ResourceSet ResourceSet::without(const ResourceSet& other) const {
    SetBuilder result;
    HostPicker mine(*this);
    for (const auto& p : model::sweep(groups_, other.groups_)) {
        if (p.a == nullptr)
            continue;
        if (p.b == nullptr) {
            result.add(p.first, p.last, p.a->cores, p.a->gpus, mine);
            continue;
        }
        const IdSet cores = p.a->cores.without(p.b->cores);
        const IdSet gpus = p.a->gpus.without(p.b->gpus);
        if (!cores.empty() || !gpus.empty())
            result.add(p.first, p.last, cores, gpus, mine);
    }
    ResourceSet out = result.take();
    keep_properties(out, {this});
    out.scheduling = scheduling;
    out.treepool = treepool;
    out.fluxion_graph = fluxion_graph;
    return out;
}

bool ResourceSet::includes(const ResourceSet& other) const {
    for (const auto& p : model::sweep(groups_, other.groups_)) {
        if (p.b == nullptr)
            continue;
        if (p.a == nullptr || !p.a->cores.includes(p.b->cores) || !p.a->gpus.includes(p.b->gpus))
            return false;
    }
    return true;
}

} // namespace jobspec
