// The request's units: where a node or a one-rank group begins, and what it holds.
#include "match/placement_units.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "support/numbers.hpp"

namespace jobspec::match {

using support::saturating_product;
using support::saturating_sum;

namespace {

bool holds_node(const ResourceList& list) {
    for (const auto& v : list)
        if (v.type == "node" || holds_node(v.with))
            return true;
    return false;
}

bool exclusive_of(const ResourceVertex& v, bool fallback) {
    const VertexProperty* x = v.find("exclusive");
    return x != nullptr && x->value.is_bool() ? x->value.get_bool() : fallback;
}

/// What one node or instance needs, as it is read: the least of each kind, and the ways.
struct Need {
    Demand least;
    DemandChoices ways;
};

/// The smallest count of or-slots side by side: the last one's count (Fluxion's), at
/// least every one's least. Nothing when the last one's count cannot be that many.
std::optional<std::uint64_t> or_slots_least(const ResourceList& list) {
    std::uint64_t least = 0;
    for (const auto& v : list)
        least = std::max(least, v.count.least());
    const Count& count = list.back().count;
    if (count.least() >= least)
        return count.least();
    const auto top = count.greatest_at_most(UINT64_MAX);
    if (!top || *top < least)
        return std::nullopt;
    // The smallest n whose greatest acceptable value is at least `least`: that value.
    std::uint64_t lo = least, hi = *top;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (*count.greatest_at_most(mid) >= least)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

class Planner {
public:
    Planner(bool or_slots, const Demand& most) : or_slots_(or_slots), most_(most) {}

    Diagnostics why;
    PlacementPlan plan;

    void above_nodes(const ResourceList& list, const std::string& prefix, std::uint64_t multiplier,
                     bool in_slot) {
        if (is_or_group(list)) {
            or_slots_above(list, prefix, multiplier);
            return;
        }
        for (std::size_t i = 0; i < list.size(); ++i) {
            const ResourceVertex& v = list[i];
            const std::string pointer = fmt::format("{}/{}", prefix, i);
            if (v.type == "node") {
                PlacementUnit u = unit(PlacementUnit::Kind::nodes, v, pointer, multiplier);
                u.exclusive = exclusive_of(v, in_slot);
                Need need;
                inside(v.with, pointer + "/with", u, 1, need);
                plan.units.push_back(with(std::move(u), std::move(need)));
            } else if (holds_node(v.with)) {
                // Slots, or groupings R does not describe (cluster, rack), of nodes.
                const std::uint64_t n = saturating_product(multiplier, v.count.least());
                if (v.is_slot())
                    plan.slots_above_nodes = saturating_sum(plan.slots_above_nodes, n);
                else
                    unchecked(v, pointer);
                above_nodes(v.with, pointer + "/with", n, in_slot || v.is_slot());
            } else if (!known(v, pointer)) {
                continue;
            } else {
                PlacementUnit u = unit(PlacementUnit::Kind::groups, v, pointer, multiplier);
                Need need;
                if (v.is_slot()) {
                    u.slots_each = 1;
                    inside(v.with, pointer + "/with", u, 1, need);
                } else if (grouping(v)) {
                    // A socket (say) of slots with no node: each on one node.
                    unchecked(v, pointer);
                    inside(v.with, pointer + "/with", u, 1, need);
                } else {
                    // A core or gpu outside a slot: each one anywhere.
                    leaf(v, pointer, u, 1, need);
                }
                plan.units.push_back(with(std::move(u), std::move(need)));
            }
        }
    }

private:
    bool or_slots_;
    Demand most_;
    std::vector<std::string> warned_;

    static PlacementUnit unit(PlacementUnit::Kind kind, const ResourceVertex& v,
                              const std::string& pointer, std::uint64_t multiplier) {
        PlacementUnit u;
        u.kind = kind;
        u.at = {&v, pointer};
        u.least = v.count.least();
        u.multiplier = multiplier;
        return u;
    }

    static PlacementUnit with(PlacementUnit u, Need need) {
        u.each = need.least;
        u.ways = std::move(need.ways);
        return u;
    }

    /// Whether the list is Fluxion's or-slots: task slots side by side.
    bool is_or_group(const ResourceList& list) const {
        return or_slots_ && std::count_if(list.begin(), list.end(),
                                          [](const ResourceVertex& v) { return v.is_slot(); }) > 1;
    }

    /// The or-slots' least count, or nothing (with why) when they cannot be placed.
    std::optional<std::uint64_t> or_group_least(const ResourceList& list,
                                                const std::string& prefix) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (!list[i].is_slot()) {
                why.add(Code::match_unsupported,
                        "Fluxion's or-slots are alternatives: nothing but other slots can be "
                        "placed beside them",
                        Location(list[i].range, fmt::format("{}/{}", prefix, i)));
                return std::nullopt;
            }
        const auto least = or_slots_least(list);
        if (!least) {
            const auto most = std::max_element(
                list.begin(), list.end(), [](const ResourceVertex& a, const ResourceVertex& b) {
                    return a.count.least() < b.count.least();
                });
            why.add(Code::jobspec_unsatisfiable,
                    fmt::format("Fluxion allocates as many of these or-slots as the last one's "
                                "count, {}, and this one asks at least {}",
                                list.back().count.format(), most->count.least()),
                    Location(most->range, fmt::format("{}/{}", prefix, most - list.begin())));
        }
        return least;
    }

    /// What one instance of any of the or-slots needs, each read as `inside` reads it
    /// (of nodes: what each one's node holds).
    Need any_of(const ResourceList& list, const std::string& prefix, PlacementUnit& u,
                bool of_nodes, std::uint64_t instances) {
        std::optional<Need> any;
        OrSlots group{instances, {}};
        const std::size_t groups = u.or_slots.size();
        for (std::size_t i = 0; i < list.size(); ++i) {
            Need one;
            const ResourceList& with = of_nodes ? list[i].with[0].with : list[i].with;
            inside(with, fmt::format("{}/{}/with{}", prefix, i, of_nodes ? "/0/with" : ""), u, 1,
                   one);
            group.shapes.push_back(one.least);
            if (!any)
                any = std::move(one);
            else
                any = Need{{std::min(any->least.cores, one.least.cores),
                            std::min(any->least.gpus, one.least.gpus)},
                           any->ways.either(one.ways)};
        }
        // Or-slots inside these: their shapes are only the least of each kind.
        group.exact = u.or_slots.size() == groups;
        u.or_slots.push_back(std::move(group));
        return *any;
    }

    /// Or-slots with no node above them: each instance on one node, or (when each holds
    /// one node) each instance a node.
    void or_slots_above(const ResourceList& list, const std::string& prefix,
                        std::uint64_t multiplier) {
        const auto least = or_group_least(list, prefix);
        if (!least)
            return;
        const std::size_t last = list.size() - 1;
        const std::string at = fmt::format("{}/{}", prefix, last);
        const auto of_nodes = std::count_if(
            list.begin(), list.end(), [](const ResourceVertex& v) { return holds_node(v.with); });
        if (of_nodes == 0) {
            PlacementUnit u = unit(PlacementUnit::Kind::groups, list[last], at, multiplier);
            u.least = *least;
            Need any = any_of(list, prefix, u, false, 0);
            u.slots_each = 1;
            plan.units.push_back(with(std::move(u), std::move(any)));
            return;
        }
        for (std::size_t i = 0; i < list.size(); ++i) {
            const ResourceList& in = list[i].with;
            if (in.size() != 1 || in[0].type != "node" || in[0].count != Count(1) ||
                exclusive_of(in[0], true) != exclusive_of(list[0].with[0], true)) {
                why.add(Code::match_unsupported,
                        "or-slots of nodes are placed when each holds one node, alone, and "
                        "all of them as exclusive",
                        Location(list[i].range, fmt::format("{}/{}", prefix, i)));
                return;
            }
        }
        const std::uint64_t instances = saturating_product(multiplier, *least);
        PlacementUnit u =
            unit(PlacementUnit::Kind::nodes, list[last].with[0], at + "/with/0", instances);
        u.exclusive = exclusive_of(list[last].with[0], true);
        plan.slots_above_nodes = saturating_sum(plan.slots_above_nodes, instances);
        Need any = any_of(list, prefix, u, true, 0);
        u.slots_each = 0;
        plan.units.push_back(with(std::move(u), std::move(any)));
    }

    /// Or-slots inside a unit: `n` times their least count, each instance any shape.
    void or_slots_inside(const ResourceList& list, const std::string& prefix, PlacementUnit& u,
                         std::uint64_t n, Need& need) {
        const auto least = or_group_least(list, prefix);
        if (!least)
            return;
        const std::uint64_t slots = u.slots_each;
        const std::uint64_t k = saturating_product(n, *least);
        const Need any = any_of(list, prefix, u, false, k);
        u.slots_each = saturating_sum(slots, k);
        need.least = need.least + any.least.times(k);
        need.ways = need.ways.plus(any.ways.times(k, most_), most_);
    }

    /// A type R version 1 does not describe that holds others: placed as what it holds.
    static bool grouping(const ResourceVertex& v) {
        return !v.is_slot() && v.type != "core" && v.type != "gpu" && v.type != "node" &&
               !v.with.empty();
    }

    /// Says once per type that R cannot show the grouping was kept.
    void unchecked(const ResourceVertex& v, const std::string& pointer) {
        if (std::find(warned_.begin(), warned_.end(), v.type) != warned_.end())
            return;
        warned_.push_back(v.type);
        why.add(Code::match_unchecked,
                fmt::format("R version 1 does not describe a '{}': what each one holds is placed "
                            "as asked, but not known to be in one",
                            v.type),
                Location(v.type_range.known() ? v.type_range : v.range, pointer + "/type"));
    }

    bool known(const ResourceVertex& v, const std::string& pointer) {
        if (v.is_slot() || v.type == "core" || v.type == "gpu" || grouping(v))
            return true;
        why.add(Code::match_unsupported,
                fmt::format("R version 1 describes nodes, cores and gpus: a '{}' cannot be "
                            "placed",
                            v.type),
                Location(v.type_range.known() ? v.type_range : v.range, pointer + "/type"));
        return false;
    }

    /// Adds `n` of vertex v (each one holding its contents) to what one unit needs.
    void one(const ResourceVertex& v, const std::string& pointer, PlacementUnit& u, std::uint64_t n,
             Need& need) {
        const std::uint64_t count = saturating_product(n, v.count.least());
        if (v.type == "node") {
            why.add(Code::match_unsupported,
                    "a node cannot be inside a node or a task slot "
                    "that is on one node",
                    Location(v.range, pointer));
            return;
        }
        if (!known(v, pointer))
            return;
        if (v.is_slot() || grouping(v)) {
            if (v.is_slot())
                u.slots_each = saturating_sum(u.slots_each, count);
            else
                unchecked(v, pointer);
            inside(v.with, pointer + "/with", u, count, need);
            return;
        }
        leaf(v, pointer, u, count, need);
    }

    void leaf(const ResourceVertex& v, const std::string& pointer, PlacementUnit& u,
              std::uint64_t count, Need& need) {
        if (!v.with.empty()) {
            why.add(Code::match_unsupported,
                    fmt::format("R version 1 has nothing inside a {}", v.type),
                    Location(v.range, pointer + "/with"));
            return;
        }
        const bool core = v.type == "core";
        VertexAt& first = core ? u.core : u.gpu;
        if (first.vertex == nullptr)
            first = {&v, pointer};
        const Demand d = core ? Demand{count, 0} : Demand{0, count};
        need.least = need.least + d;
        // Ways matter only where or-slots can give a unit several (PlacementUnit::ways).
        if (or_slots_)
            need.ways = need.ways.plus(DemandChoices(d), most_);
    }

    void inside(const ResourceList& list, const std::string& prefix, PlacementUnit& u,
                std::uint64_t n, Need& need) {
        if (is_or_group(list)) {
            or_slots_inside(list, prefix, u, n, need);
            return;
        }
        for (std::size_t i = 0; i < list.size(); ++i)
            one(list[i], fmt::format("{}/{}", prefix, i), u, n, need);
    }
};

} // namespace

Result<PlacementPlan> placement_plan(const ResourceList& resources, bool or_slots,
                                     const Demand& most) {
    Planner p(or_slots, most);
    p.above_nodes(resources, "/resources", 1, false);
    if (p.why.has_errors())
        return Result<PlacementPlan>(std::move(p.why));
    return {std::move(p.plan), std::move(p.why)};
}

} // namespace jobspec::match
