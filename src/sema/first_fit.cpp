// First fit of a V1 jobspec onto R (the public allocate, api/feasibility.cpp).
#include "sema/first_fit.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <jobspec/constraint.hpp>

#include "model/treepool.hpp"
#include "sema/v1_pass.hpp"
#include "sema/xor_candidates.hpp"

namespace jobspec::sema {

namespace {

/// The first `n` ids of a set.
IdSet first_ids(const IdSet& s, std::uint64_t n) {
    IdSet out;
    for (const auto& r : s.ranges()) {
        if (n == 0)
            break;
        const std::uint64_t take = std::min(n, r.last - r.first + 1);
        out.insert(r.first, r.first + take - 1);
        n -= take;
    }
    return out;
}

std::uint64_t count_of(const ResourceList& with, std::string_view type) {
    for (const auto& v : with)
        if (v.type == type && v.count.is_fixed())
            return v.count.fixed();
    return 0;
}

/// "1 core", "2 cores": a count and its noun, singular for one.
std::string counted(std::uint64_t n, std::string_view noun) {
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string resources_phrase(std::uint64_t cores, std::uint64_t gpus) {
    return gpus > 0 ? fmt::format("{} and {}", counted(cores, "core"), counted(gpus, "gpu"))
                    : counted(cores, "core");
}

/// A rank range of one group, in rank order.
struct Piece {
    std::uint64_t first, last;
    const ResourceSet::Group* group;
};

std::vector<Piece> pieces(const ResourceSet& r, const IdSet& ranks) {
    std::vector<Piece> out;
    for (const auto& g : r.groups())
        for (const auto& range : g.ranks.intersected(ranks).ranges())
            out.push_back({range.first, range.last, &g});
    std::sort(out.begin(), out.end(),
              [](const Piece& a, const Piece& b) { return a.first < b.first; });
    return out;
}

Result<ResourceSet> unsatisfiable(std::string message) {
    Diagnostics d;
    d.add(Code::jobspec_unsatisfiable, std::move(message));
    return Result<ResourceSet>(std::move(d));
}

/// The allocation with hosts and non-local properties of the ranks it uses.
ResourceSet finish(const ResourceSet& r, ResourceSet alloc, std::uint64_t nslots) {
    const IdSet used = alloc.ranks();
    const ResourceSet shaped = r.filtered(used);
    alloc.set_nodelist(shaped.nodelist());
    for (const auto& [name, ranks] : shaped.properties())
        if (name.empty() || name[0] != '+')
            alloc.set_property(name, ranks);
    alloc.nslots = static_cast<std::int64_t>(nslots);
    // RFC 49: TreePool's topology rides along, trimmed to the ranks allocated. Another
    // scheduler's key describes its own view; the allocation has none.
    if (model::is_treepool(r.scheduling))
        alloc.scheduling = shaped.scheduling;
    return alloc;
}

/// Fluxion tries at most this many xor_slot candidates (its SYSTEM_MAX_XOR_EXPANSION).
constexpr std::size_t max_xor_candidates = 1000;

/// The first slot, depth first, or null.
ResourceVertex* first_slot(ResourceList& resources) {
    for (auto& v : resources) {
        if (v.is_slot())
            return &v;
        if (auto* inner = first_slot(v.with))
            return inner;
    }
    return nullptr;
}

/// Fluxion's reading: each xor_slot candidate as an RFC 25 V1 jobspec of version 1 whose
/// tasks run in its slot (Fluxion checks neither), the first that fits winning.
Result<ResourceSet> fluxion_fit(const Jobspec& js, const ResourceSet& r) {
    const auto candidates = xor_candidates(js.resources, max_xor_candidates);
    if (!candidates) {
        Diagnostics d;
        d.add(Code::limit_expansion,
              fmt::format("the xor_slots stand for more than {} choices of resources, more "
                          "than Fluxion tries",
                          max_xor_candidates));
        return Result<ResourceSet>(std::move(d));
    }
    Diagnostics why;
    for (std::size_t i = 0; i < candidates->size(); ++i) {
        Jobspec candidate = js;
        candidate.version = 1;
        candidate.resources = (*candidates)[i];
        if (ResourceVertex* slot = first_slot(candidate.resources)) {
            // An xor_slot needs no label in Fluxion: the tasks run in the one chosen.
            if (!slot->label())
                slot->properties.push_back({"label", "task", {}, {}});
            for (auto& task : candidate.tasks)
                task.slot = std::string(*slot->label());
        }
        auto fit = first_fit(candidate, r, Dialect::rfc);
        if (fit.ok() || candidates->size() == 1)
            return fit;
        for (Diagnostic d : fit.diagnostics()) {
            d.message = fmt::format("xor_slot choice {} of {}: {}", i + 1, candidates->size(),
                                    d.message);
            why.add(std::move(d));
        }
    }
    return Result<ResourceSet>(std::move(why));
}

} // namespace

Result<ResourceSet> first_fit(const Jobspec& js, const ResourceSet& r, Dialect dialect) {
    if (dialect == Dialect::fluxion)
        return fluxion_fit(js, r);
    Diagnostics v1;
    sema::check_v1(js, v1);
    if (v1.has_errors())
        return Result<ResourceSet>(std::move(v1));
    IdSet candidates = r.ranks();
    std::string_view scope;
    if (const Constraint* constraint = js.attributes.constraints()) {
        auto matched = constraint->match(r);
        if (!matched.ok())
            return Result<ResourceSet>(std::move(matched).diagnostics());
        candidates = std::move(matched).value();
        scope = " that match the constraints";
    }
    const ResourceVertex& top = js.resources.front();
    const bool by_node = top.type == "node";
    const ResourceVertex& slot = by_node ? top.with.front() : top;
    const std::uint64_t slots = slot.count.fixed();
    const std::uint64_t cores = count_of(slot.with, "core");
    const std::uint64_t gpus = count_of(slot.with, "gpu");
    ResourceSet alloc;

    if (by_node) {
        const std::uint64_t nodes = top.count.fixed();
        const VertexProperty* x = top.find("exclusive");
        const bool exclusive = x != nullptr && x->value.is_bool() && x->value.get_bool();
        const std::uint64_t need_cores = slots * cores;
        const std::uint64_t need_gpus = slots * gpus;
        std::vector<Piece> fit;
        std::uint64_t fitting = 0;
        for (const auto& p : pieces(r, candidates)) {
            if (p.group->cores.count() < need_cores || p.group->gpus.count() < need_gpus)
                continue;
            fit.push_back(p);
            fitting += p.last - p.first + 1;
        }
        if (fitting < nodes)
            return unsatisfiable(fmt::format(
                "needs {} with {} each; {} of the {} targets{} {} them", counted(nodes, "node"),
                resources_phrase(need_cores, need_gpus), fitting, candidates.count(), scope,
                fitting == 1 ? "has" : "have"));
        std::uint64_t left = nodes;
        for (const auto& p : fit) {
            if (left == 0)
                break;
            const std::uint64_t take = std::min(left, p.last - p.first + 1);
            alloc.add(IdSet::range(p.first, p.first + take - 1),
                      exclusive ? p.group->cores : first_ids(p.group->cores, need_cores),
                      exclusive ? p.group->gpus : first_ids(p.group->gpus, need_gpus));
            left -= take;
        }
        return finish(r, std::move(alloc), nodes * slots);
    }

    // No node vertex: pack the slots onto ranks in order, whole ranks first.
    std::uint64_t left = slots;
    std::uint64_t capacity = 0;
    for (const auto& p : pieces(r, candidates)) {
        constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();
        const std::uint64_t per_rank =
            std::min(cores == 0 ? unlimited : p.group->cores.count() / cores,
                     gpus == 0 ? unlimited : p.group->gpus.count() / gpus);
        if (per_rank == 0)
            continue;
        const std::uint64_t ranks = p.last - p.first + 1;
        capacity += per_rank > unlimited / ranks ? unlimited : ranks * per_rank;
        if (left == 0)
            continue;
        const std::uint64_t full = std::min(ranks, left / per_rank);
        if (full > 0)
            alloc.add(IdSet::range(p.first, p.first + full - 1),
                      first_ids(p.group->cores, per_rank * cores),
                      first_ids(p.group->gpus, per_rank * gpus));
        left -= full * per_rank;
        if (left > 0 && full < ranks) {
            alloc.add(IdSet::range(p.first + full, p.first + full),
                      first_ids(p.group->cores, left * cores),
                      first_ids(p.group->gpus, left * gpus));
            left = 0;
        }
    }
    if (left > 0)
        return unsatisfiable(fmt::format("needs {} of {}; the {} targets{} hold {}",
                                         counted(slots, "slot"), resources_phrase(cores, gpus),
                                         candidates.count(), scope, capacity));
    return finish(r, std::move(alloc), slots);
}

} // namespace jobspec::sema
