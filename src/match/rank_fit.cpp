// Placing a jobspec's request on R's ranks (through match/match.hpp's door): node units
// on ranks that hold them, then one-rank groups packed onto what is left.
#include "match/rank_fit.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "match/match_explanation.hpp"
#include "match/node_assignment.hpp"
#include "match/placement_units.hpp"
#include "match/rank_pool.hpp"
#include "match/xor_candidates.hpp"
#include "support/numbers.hpp"

namespace jobspec::match {

using support::saturating_product;
using support::saturating_sum;

namespace {

constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

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

/// How many instances of `each` a rank with these cores and gpus holds.
std::uint64_t per_rank(std::uint64_t cores, std::uint64_t gpus, const Demand& each) {
    const std::uint64_t by_cores = each.cores == 0 ? unlimited : cores / each.cores;
    const std::uint64_t by_gpus = each.gpus == 0 ? unlimited : gpus / each.gpus;
    return std::min(by_cores, by_gpus);
}

/// The most instances of a unit its count can take.
std::uint64_t most_instances(const PlacementUnit& u) {
    return saturating_product(u.multiplier,
                              u.at.vertex->count.greatest_at_most(UINT64_MAX).value_or(0));
}

/// The unit's one group of or-slots whose shapes are exact, or null.
const OrSlots* exact_or_slots(const PlacementUnit& u) {
    return u.or_slots.size() == 1 && u.or_slots[0].exact ? &u.or_slots[0] : nullptr;
}

/// What one node of a unit with or-slots takes within `room`: the mix of shapes
/// Fluxion's search chooses (earliest_mix) beside the rest of the node, or, when the
/// shapes are not exact, the way with fewest gpus. Nothing when none fits.
std::optional<Demand> node_mix(const PlacementUnit& u, const Demand& room) {
    const OrSlots* group = exact_or_slots(u);
    if (group == nullptr) {
        const Demand* way = u.ways.fitting(room.cores, room.gpus);
        return way != nullptr ? std::optional(*way) : std::nullopt;
    }
    if (group->instances == 0) { // each node is one of the or-slots
        for (const Demand& s : group->shapes)
            if (s.within(room))
                return s;
        return std::nullopt;
    }
    // The rest of the node: its least demand less the or-slots' least (room holds each).
    Demand least{UINT64_MAX, UINT64_MAX};
    for (const Demand& s : group->shapes)
        least = {std::min(least.cores, s.cores), std::min(least.gpus, s.gpus)};
    const Demand rest = u.each - least.times(group->instances);
    const auto mix = earliest_mix(group->shapes, group->instances, room - rest);
    if (!mix)
        return std::nullopt;
    return rest + *mix;
}

/// What a rank of the pool holds of a unit, and what that takes. Without or-slots that
/// is arithmetic; with them it is worked out once per unit and size of rank (the runs of
/// a cluster have few sizes) and kept.
class Held {
public:
    /// What one node of the unit takes on a rank of the run, or null when the rank
    /// cannot be one.
    const Demand* node(const RankPool::Run& run, const PlacementUnit& u) const {
        const std::uint64_t cores = run.cores->count(), gpus = run.gpus->count();
        if (cores < u.each.cores || gpus < u.each.gpus || (u.exclusive && !run.whole))
            return nullptr;
        if (u.or_slots.empty())
            return &u.each;
        const Key key{&u, cores, gpus};
        auto it = nodes_.find(key);
        if (it == nodes_.end())
            it = nodes_.emplace(key, node_mix(u, {cores, gpus})).first;
        return it->second ? &*it->second : nullptr;
    }

    /// How many instances of a one-rank group one rank of the run holds; with or-slots,
    /// no more than the unit can take in all.
    std::uint64_t count(const RankPool::Run& run, const PlacementUnit& u) const {
        if (u.or_slots.empty())
            return per_rank(run.cores->count(), run.gpus->count(), u.each);
        return table(run, u).size();
    }

    /// What `n` instances (n <= count) take on one rank of the run.
    Demand taken(const RankPool::Run& run, const PlacementUnit& u, std::uint64_t n) const {
        if (n == 0)
            return {};
        if (u.or_slots.empty())
            return u.each.times(n);
        return table(run, u)[n - 1];
    }

private:
    using Key = std::tuple<const PlacementUnit*, std::uint64_t, std::uint64_t>;
    mutable std::map<Key, std::optional<Demand>> nodes_;
    mutable std::map<Key, std::vector<Demand>> tables_;

    const std::vector<Demand>& table(const RankPool::Run& run, const PlacementUnit& u) const {
        const Key key{&u, run.cores->count(), run.gpus->count()};
        auto it = tables_.find(key);
        if (it == tables_.end()) {
            // Each instance one of the shapes; or-slots inside an instance make its
            // shapes the ways it can be held.
            const OrSlots* group = exact_or_slots(u);
            const auto& shapes =
                group != nullptr && group->instances == 0 ? group->shapes : u.ways.ways();
            it = tables_
                     .emplace(key, instances_held(shapes, std::get<1>(key), std::get<2>(key),
                                                  most_instances(u)))
                     .first;
        }
        return it->second;
    }
};

/// What one node or instance of the unit needs: "8 cores and 1 gpu", or with or-slots
/// "2 task slots of 4 cores or of 2 cores and 1 gpu".
std::string ways_phrase(const PlacementUnit& u) {
    if (u.or_slots.empty())
        return demand_phrase(u.each);
    std::string text;
    for (const OrSlots& group : u.or_slots) {
        std::string shapes;
        for (const Demand& d : group.shapes)
            shapes += (shapes.empty()         ? ""
                       : group.instances == 0 ? " or "
                                              : " or of ") +
                      demand_phrase(d);
        if (group.instances > 0)
            shapes = counted(group.instances, "task slot") + " of " + shapes;
        text += (text.empty() ? "" : " and ") + shapes;
    }
    return text;
}

/// What the placement works on, and how to speak of it.
struct Setting {
    const PlacementPlan& plan;
    /// Ranks before the constraints (R's, or those with something free).
    std::uint64_t all_ranks = 0;
    bool constrained = false;
    /// Whether the jobspec has constraints of its own (else they are its queue's).
    bool own_constraint = false;
    /// Whether the pool is what is free now: a failure is then match.pending.
    bool free = false;
    /// What the placement may spend, or null for no limit.
    StepBudget* budget = nullptr;
    Code code() const { return free ? Code::match_pending : Code::jobspec_unsatisfiable; }
};

class Placer {
public:
    Placer(const Setting& s, RankPool pool) : s_(s), pool_(std::move(pool)) {}

    /// The allocation's parts and its task slots, or why not (false, with why()).
    bool place() {
        // A copy to start again from, only when groups may need it (see place_all).
        const bool may_retry =
            groups() > 0 &&
            std::any_of(s_.plan.units.begin(), s_.plan.units.end(), [](const PlacementUnit& u) {
                return u.kind == PlacementUnit::Kind::nodes && !u.at.vertex->count.is_fixed();
            });
        const std::optional<RankPool> start = may_retry ? std::optional(pool_) : std::nullopt;
        if (place_all(true))
            return true;
        if (!expanded_ || !start)
            return false;
        // More nodes than their least left the groups too little: the least, then.
        pool_ = *start;
        alloc_ = ResourceSet{};
        nslots_ = 0;
        return place_all(false);
    }
    ResourceSet allocation() const { return alloc_; }
    std::uint64_t nslots() const { return nslots_; }
    Diagnostic why() const { return why_; }

private:
    const Setting& s_;
    RankPool pool_;
    ResourceSet alloc_;
    std::uint64_t nslots_ = 0;
    Diagnostic why_;
    Held held_;
    /// Whether a node count took more than its least (so groups failing may retry).
    bool expanded_ = false;

    std::size_t groups() const {
        return static_cast<std::size_t>(
            std::count_if(s_.plan.units.begin(), s_.plan.units.end(), [](const PlacementUnit& u) {
                return u.kind == PlacementUnit::Kind::groups;
            }));
    }

    bool place_all(bool expand) {
        if (!place_nodes(expand))
            return false;
        for (const auto& u : s_.plan.units)
            if (u.kind == PlacementUnit::Kind::groups && !place_groups(u))
                return false;
        return true;
    }

    /// Every node down to those that hold `each`, step by step.
    std::vector<Narrowing> narrowing(const PlacementUnit& u) const {
        std::uint64_t cores = 0, both = 0, shaped = 0, whole = 0;
        for (const auto& run : pool_.runs()) {
            if (run.cores->count() < u.each.cores)
                continue;
            cores += run.size();
            if (run.gpus->count() < u.each.gpus)
                continue;
            both += run.size();
            const bool fits = u.kind == PlacementUnit::Kind::nodes ? held_.node(run, u) != nullptr
                                                                   : held_.count(run, u) > 0;
            if (!fits)
                continue;
            shaped += run.size();
            if (run.whole)
                whole += run.size();
        }
        const std::string free = s_.free ? "free " : "";
        const std::string anything = s_.free ? "with something free" : "";
        const auto has = [&](std::string what, std::uint64_t left, const VertexAt& at) {
            return Narrowing{"have " + what, "has " + what, left, at.pointer, at.vertex->range};
        };
        std::vector<Narrowing> steps;
        steps.push_back({anything, anything, s_.all_ranks, u.at.pointer, u.at.vertex->range});
        if (s_.constrained)
            steps.push_back({"match the constraints",
                             "matches the constraints",
                             pool_.count_ranks(),
                             s_.own_constraint ? "/attributes/system/constraints" : "",
                             {}});
        if (u.each.cores > 0)
            steps.push_back(has(counted(u.each.cores, free + "core"), cores, u.core));
        if (u.each.gpus > 0)
            steps.push_back(has(counted(u.each.gpus, free + "gpu"), both, u.gpu));
        if (!u.or_slots.empty())
            steps.push_back(
                {"can hold them", "can hold them", shaped, u.at.pointer, u.at.vertex->range});
        if (u.exclusive && s_.free)
            steps.push_back(
                {"are wholly free", "is wholly free", whole, u.at.pointer, u.at.vertex->range});
        return steps;
    }

    std::string asks(const PlacementUnit& u, std::uint64_t need) const {
        const std::string noun = u.kind == PlacementUnit::Kind::nodes ? "node" : u.at.vertex->type;
        std::string text = "asks " + counted(need, noun);
        if (u.multiplier > 1)
            text += fmt::format(" ({} per slot)", need / u.multiplier);
        if (u.kind == PlacementUnit::Kind::nodes) {
            if (u.each.cores > 0 || u.each.gpus > 0 || !u.or_slots.empty())
                text += " with " + ways_phrase(u) + " each";
            if (u.exclusive)
                text += ", whole";
        } else if (u.at.vertex->is_slot()) {
            text += " of " + ways_phrase(u) + ", each on one node";
        }
        if (s_.free)
            text = "fits, but not what is free now; it " + text;
        return text;
    }

    /// The runs in the order nodes take them: rank order, but when one node request
    /// shares the request with one-rank groups, the ranks whose loss leaves the first
    /// group the most room come first (then the choice of nodes is never what makes it
    /// fail).
    std::vector<std::size_t> node_order(const PlacementUnit& u) const {
        const auto& runs = pool_.runs();
        std::vector<std::size_t> order(runs.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const PlacementUnit* group = nullptr;
        std::size_t node_units = 0;
        for (const auto& v : s_.plan.units) {
            node_units += v.kind == PlacementUnit::Kind::nodes;
            if (group == nullptr && v.kind == PlacementUnit::Kind::groups)
                group = &v;
        }
        if (group == nullptr || node_units != 1)
            return order;
        const auto loss = [&](const RankPool::Run& run) -> std::uint64_t {
            const Demand* way = held_.node(run, u);
            if (way == nullptr)
                return 0;
            if (u.exclusive)
                return held_.count(run, *group);
            RankPool::Run after = run;
            after.cores = std::make_shared<const IdSet>(
                run.cores->without(first_ids(*run.cores, way->cores)));
            after.gpus =
                std::make_shared<const IdSet>(run.gpus->without(first_ids(*run.gpus, way->gpus)));
            return held_.count(run, *group) - held_.count(after, *group);
        };
        std::vector<std::uint64_t> lost(runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            spend(s_.budget);
            lost[i] = loss(runs[i]);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return lost[x] < lost[y]; });
        return order;
    }

    bool place_nodes(bool expand) {
        std::vector<const PlacementUnit*> units;
        for (const auto& u : s_.plan.units)
            if (u.kind == PlacementUnit::Kind::nodes)
                units.push_back(&u);
        if (units.empty())
            return true;
        const auto& runs = pool_.runs();
        // Runs that the same requests can use are one class of the assignment: at most
        // one class per set of requests, however different the nodes are.
        std::map<std::vector<bool>, std::size_t> index;
        std::vector<std::size_t> class_of(runs.size());
        NodeAssignment a;
        a.budget = s_.budget;
        std::vector<bool> can(units.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            spend(s_.budget, units.size());
            for (std::size_t k = 0; k < units.size(); ++k)
                can[k] = held_.node(runs[i], *units[k]) != nullptr;
            auto it = index.find(can);
            if (it == index.end()) {
                it = index.emplace(can, a.sizes.size()).first;
                a.sizes.push_back(0);
            }
            a.sizes[it->second] += runs[i].size();
            class_of[i] = it->second;
        }
        a.eligible.assign(units.size(), std::vector<bool>(a.sizes.size(), false));
        for (const auto& [requests, c] : index)
            for (std::size_t k = 0; k < units.size(); ++k)
                a.eligible[k][c] = requests[k];
        for (const auto* u : units)
            a.needs.push_back(saturating_product(u->multiplier, u->least));
        // The first unit that cannot be met, alone or with those before it.
        for (std::size_t k = 0; k < units.size(); ++k) {
            if (a.feasible(k + 1))
                continue;
            const auto& u = *units[k];
            const bool alone = a.eligible_ranks(k) < a.needs[k];
            const std::string too_few =
                fmt::format(" too few for it and the {} before it", counted(k, "node request"));
            why_ =
                narrowing_diagnostic(s_.code(), asks(u, a.needs[k]), a.needs[k], narrowing(u), u.at,
                                     alone ? "" : "are" + too_few, alone ? "" : "is" + too_few);
            return false;
        }
        // Counts that are choices take as many as fit, each unit in turn.
        for (std::size_t k = 0; k < units.size(); ++k) {
            const Count& count = units[k]->at.vertex->count;
            if (!expand || count.is_fixed())
                continue;
            const std::uint64_t m = units[k]->multiplier;
            const auto value = [&](std::uint64_t n) {
                return saturating_product(m, *count.greatest_at_most(n));
            };
            std::uint64_t lo = units[k]->least;
            std::uint64_t hi = *count.greatest_at_most(a.eligible_ranks(k) / m);
            while (lo < hi) {
                const std::uint64_t mid = lo + (hi - lo + 1) / 2;
                a.needs[k] = value(mid);
                if (a.feasible(units.size()))
                    lo = mid;
                else
                    hi = mid - 1;
            }
            a.needs[k] = value(lo);
            expanded_ = expanded_ || lo > units[k]->least;
        }
        auto quotas = units.size() == 1 ? std::nullopt : a.assign();
        std::vector<std::uint64_t> used(runs.size(), 0);
        std::vector<RankPool::Take> takes;
        const auto order = node_order(*units.front());
        for (std::size_t k = 0; k < units.size(); ++k) {
            const auto& u = *units[k];
            std::uint64_t left = a.needs[k];
            ResourceSet part;
            for (const std::size_t i : order) {
                if (left == 0)
                    break;
                spend(s_.budget);
                if (!a.eligible[k][class_of[i]])
                    continue;
                std::uint64_t n = std::min(left, runs[i].size() - used[i]);
                if (quotas)
                    n = std::min(n, (*quotas)[k][class_of[i]]);
                if (n == 0)
                    continue;
                const std::uint64_t first = runs[i].first + used[i];
                const Demand& way = *held_.node(runs[i], u);
                RankPool::Take t{first, first + n - 1,
                                 u.exclusive ? *runs[i].cores
                                             : first_ids(*runs[i].cores, way.cores),
                                 u.exclusive ? *runs[i].gpus : first_ids(*runs[i].gpus, way.gpus)};
                part.add(IdSet::range(t.first, t.last), t.cores, t.gpus);
                takes.push_back(std::move(t));
                used[i] += n;
                left -= n;
                if (quotas)
                    (*quotas)[k][class_of[i]] -= n;
            }
            nslots_ = saturating_sum(nslots_, saturating_product(a.needs[k], u.slots_each));
            alloc_ = alloc_.united(part);
        }
        // What the nodes took matters only to the groups placed after them.
        if (groups() > 0)
            pool_.take(std::move(takes));
        return true;
    }

    bool place_groups(const PlacementUnit& u) {
        // What the count can take at most: more capacity than that changes nothing.
        const std::uint64_t most = most_instances(u);
        std::uint64_t capacity = 0;
        for (const auto& run : pool_.runs()) {
            if (capacity >= most)
                break;
            spend(s_.budget);
            capacity =
                saturating_sum(capacity, saturating_product(held_.count(run, u), run.size()));
        }
        const std::uint64_t need = saturating_product(u.multiplier, u.least);
        if (capacity < need) {
            const std::string held =
                fmt::format("{} such {}", capacity,
                            capacity == 1 ? u.at.vertex->type : u.at.vertex->type + "s");
            why_ = narrowing_diagnostic(s_.code(), asks(u, need), 1, narrowing(u), u.at,
                                        "hold " + held, "holds " + held);
            return false;
        }
        std::uint64_t left = saturating_product(
            u.multiplier, *u.at.vertex->count.greatest_at_most(capacity / u.multiplier));
        nslots_ = saturating_sum(nslots_, saturating_product(left, u.slots_each));
        std::vector<RankPool::Take> takes;
        ResourceSet part;
        const auto take = [&](std::uint64_t first, std::uint64_t last, const RankPool::Run& run,
                              std::uint64_t n) {
            const Demand taken = held_.taken(run, u, n);
            RankPool::Take t{first, last, first_ids(*run.cores, taken.cores),
                             first_ids(*run.gpus, taken.gpus)};
            part.add(IdSet::range(first, last), t.cores, t.gpus);
            takes.push_back(std::move(t));
        };
        for (const auto& run : pool_.runs()) {
            const std::uint64_t each = held_.count(run, u);
            if (left == 0)
                break;
            spend(s_.budget);
            if (each == 0)
                continue;
            const std::uint64_t full = std::min(run.size(), left / each);
            if (full > 0)
                take(run.first, run.first + full - 1, run, each);
            left -= full * each;
            if (left > 0 && full < run.size()) {
                take(run.first + full, run.first + full, run, left);
                left = 0;
            }
        }
        pool_.take(std::move(takes));
        alloc_ = alloc_.united(part);
        return true;
    }
};

/// The allocation with hosts and non-local properties of the ranks it uses.
ResourceSet finish(const ResourceSet& r, ResourceSet alloc, std::uint64_t nslots) {
    const ResourceSet shaped = r.filtered(alloc.ranks());
    alloc.set_nodelist(shaped.nodelist());
    for (const auto& [name, ranks] : shaped.properties())
        if (name.empty() || name[0] != '+')
            alloc.set_property(name, ranks);
    alloc.nslots = static_cast<std::int64_t>(
        std::min<std::uint64_t>(nslots, std::numeric_limits<std::int64_t>::max()));
    // RFC 49: TreePool's topology rides along, trimmed to the ranks allocated. Another
    // scheduler's key describes its own view; the allocation has none.
    if (r.treepool) {
        alloc.scheduling = shaped.scheduling;
        alloc.treepool = shaped.treepool;
    }
    return alloc;
}

/// Why not: the failing requirement, then what each constraint term removed, then the
/// plan's warnings.
Result<ResourceSet> fail(Diagnostic why, const Constraint* own, const Ground& ground,
                         const ResourceSet& r, const Diagnostics& warnings) {
    Diagnostics d;
    d.add(std::move(why));
    if (own != nullptr)
        constraint_notes(*own, r, "/attributes/system/constraints", "", d);
    if (ground.also != nullptr)
        constraint_notes(*ground.also, r, "", ground.also_from, d);
    d.append(warnings);
    return Result<ResourceSet>(std::move(d));
}

/// The most cores and the most gpus one rank of `r` has.
Demand largest_rank(const ResourceSet& r) {
    Demand most;
    for (const auto& g : r.groups()) {
        most.cores = std::max(most.cores, g.cores.count());
        most.gpus = std::max(most.gpus, g.gpus.count());
    }
    return most;
}

Result<ResourceSet> place(const Jobspec& js, const ResourceSet& r, const Ground& ground,
                          bool or_slots) {
    auto plan = placement_plan(js.resources, or_slots, largest_rank(r));
    if (!plan.ok())
        return Result<ResourceSet>(std::move(plan).diagnostics());
    const Diagnostics& warnings = plan.diagnostics();
    const Constraint* own = js.attributes.constraints();
    IdSet candidates = r.ranks();
    for (const Constraint* c : {own, ground.also}) {
        if (c == nullptr)
            continue;
        auto matched = c->match(r);
        if (!matched.ok())
            return Result<ResourceSet>(std::move(matched).diagnostics());
        candidates = c == own || own == nullptr ? std::move(matched).value()
                                                : candidates.intersected(matched.value());
    }
    Setting all{plan.value(), r.count_ranks(), own != nullptr || ground.also != nullptr,
                own != nullptr};
    all.budget = ground.budget;
    Placer whole(all, RankPool(r, candidates));
    if (!whole.place())
        return fail(whole.why(), own, ground, r, warnings);
    const std::uint64_t above = plan.value().slots_above_nodes;
    if (ground.free == nullptr)
        return {finish(r, whole.allocation(), whole.nslots() + above), warnings};
    Setting now = all;
    now.all_ranks = r.intersected(*ground.free).count_ranks();
    now.free = true;
    Placer free(now, RankPool(r, *ground.free, candidates));
    if (!free.place())
        return fail(free.why(), nullptr, Ground{}, r, warnings);
    return {finish(r, free.allocation(), free.nslots() + above), warnings};
}

/// Fluxion's reading: each xor_slot candidate in turn, the first that fits winning, with
/// slots side by side its or-slots.
Result<ResourceSet> fluxion_fit(const Jobspec& js, const ResourceSet& r, const Ground& ground) {
    const auto candidates = xor_candidates(js.resources, max_xor_candidates);
    if (!candidates)
        return Result<ResourceSet>(too_many_xor_candidates());
    Diagnostics why;
    for (std::size_t i = 0; i < candidates->size(); ++i) {
        spend(ground.budget);
        Jobspec candidate = js;
        candidate.resources = (*candidates)[i];
        auto fit = place(candidate, r, ground, true);
        if (fit.ok() || candidates->size() == 1)
            return fit;
        for (Diagnostic d : fit.diagnostics()) {
            d.message =
                fmt::format("xor_slot choice {} of {}: {}", i + 1, candidates->size(), d.message);
            why.add(std::move(d));
        }
    }
    return Result<ResourceSet>(std::move(why));
}

} // namespace

Result<ResourceSet> rank_fit(const Jobspec& js, const ResourceSet& r, const Ground& ground) {
    return js.dialect == Dialect::fluxion ? fluxion_fit(js, r, ground)
                                          : place(js, r, ground, false);
}

} // namespace jobspec::match
