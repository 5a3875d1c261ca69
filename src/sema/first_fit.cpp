// Placing a jobspec's request on R (the public allocate, api/feasibility.cpp): node units
// on ranks that hold them, then one-rank groups packed onto what is left.
#include "sema/first_fit.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "model/treepool.hpp"
#include "sema/match_explanation.hpp"
#include "sema/node_assignment.hpp"
#include "sema/placement_units.hpp"
#include "sema/rank_pool.hpp"
#include "sema/xor_candidates.hpp"
#include "support/numbers.hpp"

namespace jobspec::sema {

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

bool holds(const RankPool::Run& run, const Demand& each, bool exclusive) {
    return run.cores->count() >= each.cores && run.gpus->count() >= each.gpus &&
           (!exclusive || run.whole);
}

/// How many instances of `each` one rank of the run holds.
std::uint64_t per_rank(const RankPool::Run& run, const Demand& each) {
    const std::uint64_t by_cores = each.cores == 0 ? unlimited : run.cores->count() / each.cores;
    const std::uint64_t by_gpus = each.gpus == 0 ? unlimited : run.gpus->count() / each.gpus;
    return std::min(by_cores, by_gpus);
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
        std::uint64_t cores = 0, both = 0, whole = 0;
        for (const auto& run : pool_.runs()) {
            if (run.cores->count() < u.each.cores)
                continue;
            cores += run.size();
            if (run.gpus->count() < u.each.gpus)
                continue;
            both += run.size();
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
            if (u.each.cores > 0 || u.each.gpus > 0)
                text += " with " + demand_phrase(u.each) + " each";
            if (u.exclusive)
                text += ", whole";
        } else if (u.at.vertex->is_slot()) {
            text += " of " + demand_phrase(u.each) + ", each on one node";
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
        const auto loss = [&](const RankPool::Run& run) {
            if (u.exclusive)
                return per_rank(run, group->each);
            RankPool::Run after = run;
            after.cores = std::make_shared<const IdSet>(
                run.cores->without(first_ids(*run.cores, u.each.cores)));
            after.gpus =
                std::make_shared<const IdSet>(run.gpus->without(first_ids(*run.gpus, u.each.gpus)));
            return per_rank(run, group->each) - per_rank(after, group->each);
        };
        std::vector<std::uint64_t> lost(runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i)
            lost[i] = loss(runs[i]);
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
        std::vector<bool> can(units.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            for (std::size_t k = 0; k < units.size(); ++k)
                can[k] = holds(runs[i], units[k]->each, units[k]->exclusive);
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
            a.needs.push_back(saturating_product(u->multiplier, u->at.vertex->count.least()));
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
            std::uint64_t lo = count.least();
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
            expanded_ = expanded_ || lo > count.least();
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
                if (!a.eligible[k][class_of[i]])
                    continue;
                std::uint64_t n = std::min(left, runs[i].size() - used[i]);
                if (quotas)
                    n = std::min(n, (*quotas)[k][class_of[i]]);
                if (n == 0)
                    continue;
                const std::uint64_t first = runs[i].first + used[i];
                RankPool::Take t{
                    first, first + n - 1,
                    u.exclusive ? *runs[i].cores : first_ids(*runs[i].cores, u.each.cores),
                    u.exclusive ? *runs[i].gpus : first_ids(*runs[i].gpus, u.each.gpus)};
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
        std::uint64_t capacity = 0;
        for (const auto& run : pool_.runs())
            capacity =
                saturating_sum(capacity, saturating_product(per_rank(run, u.each), run.size()));
        const Count& count = u.at.vertex->count;
        const std::uint64_t need = saturating_product(u.multiplier, count.least());
        if (capacity < need) {
            const std::string held =
                fmt::format("{} such {}", capacity,
                            capacity == 1 ? u.at.vertex->type : u.at.vertex->type + "s");
            why_ = narrowing_diagnostic(s_.code(), asks(u, need), 1, narrowing(u), u.at,
                                        "hold " + held, "holds " + held);
            return false;
        }
        std::uint64_t left =
            saturating_product(u.multiplier, *count.greatest_at_most(capacity / u.multiplier));
        nslots_ = saturating_sum(nslots_, saturating_product(left, u.slots_each));
        std::vector<RankPool::Take> takes;
        ResourceSet part;
        const auto take = [&](std::uint64_t first, std::uint64_t last, const RankPool::Run& run,
                              std::uint64_t n) {
            RankPool::Take t{first, last, first_ids(*run.cores, n * u.each.cores),
                             first_ids(*run.gpus, n * u.each.gpus)};
            part.add(IdSet::range(first, last), t.cores, t.gpus);
            takes.push_back(std::move(t));
        };
        for (const auto& run : pool_.runs()) {
            const std::uint64_t each = per_rank(run, u.each);
            if (left == 0)
                break;
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
    if (model::is_treepool(r.scheduling))
        alloc.scheduling = shaped.scheduling;
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

Result<ResourceSet> place(const Jobspec& js, const ResourceSet& r, const Ground& ground) {
    auto plan = placement_plan(js.resources);
    if (!plan.ok())
        return Result<ResourceSet>(std::move(plan).diagnostics());
    const Diagnostics& warnings = plan.diagnostics();
    std::optional<Constraint> both;
    const Constraint* own = js.attributes.constraints();
    const Constraint* constraint = own;
    if (ground.also != nullptr) {
        both = own == nullptr ? *ground.also : Constraint{"and", {}, {*own, *ground.also}};
        constraint = &*both;
    }
    IdSet candidates = r.ranks();
    if (constraint != nullptr) {
        auto matched = constraint->match(r);
        if (!matched.ok())
            return Result<ResourceSet>(std::move(matched).diagnostics());
        candidates = std::move(matched).value();
    }
    Setting all{plan.value(), r.count_ranks(), constraint != nullptr, own != nullptr};
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

/// Fluxion tries at most this many xor_slot candidates (its SYSTEM_MAX_XOR_EXPANSION).
constexpr std::size_t max_xor_candidates = 1000;

/// The second of two slots side by side at some level (Fluxion's or-slots), or null.
const ResourceVertex* or_slot(const ResourceList& list) {
    const ResourceVertex* first = nullptr;
    for (const auto& v : list) {
        if (v.is_slot() && first != nullptr)
            return &v;
        if (v.is_slot())
            first = &v;
        if (const auto* inner = or_slot(v.with))
            return inner;
    }
    return nullptr;
}

/// Fluxion's reading: each xor_slot candidate in turn, the first that fits winning.
/// Sibling slots are alternatives there (its or-slots), which this does not search.
Result<ResourceSet> fluxion_fit(const Jobspec& js, const ResourceSet& r, const Ground& ground) {
    if (const ResourceVertex* second = or_slot(js.resources)) {
        Diagnostics d;
        d.add(Code::match_unsupported,
              "slots side by side are Fluxion's or-slots, alternatives that are not allocated "
              "here",
              Location(second->range));
        return Result<ResourceSet>(std::move(d));
    }
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
        candidate.resources = (*candidates)[i];
        auto fit = place(candidate, r, ground);
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

Result<ResourceSet> first_fit(const Jobspec& js, const ResourceSet& r, Dialect dialect,
                              const Ground& ground) {
    return dialect == Dialect::fluxion ? fluxion_fit(js, r, ground) : place(js, r, ground);
}

} // namespace jobspec::sema
