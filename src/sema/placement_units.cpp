// The request's units: where a node or a one-rank group begins, and what it holds.
#include "sema/placement_units.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "support/numbers.hpp"

namespace jobspec::sema {

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

class Planner {
public:
    Diagnostics why;
    PlacementPlan plan;

    void above_nodes(const ResourceList& list, const std::string& prefix, std::uint64_t multiplier,
                     bool in_slot) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const ResourceVertex& v = list[i];
            const std::string pointer = fmt::format("{}/{}", prefix, i);
            if (v.type == "node") {
                PlacementUnit u;
                u.kind = PlacementUnit::Kind::nodes;
                u.at = {&v, pointer};
                u.multiplier = multiplier;
                u.exclusive = exclusive_of(v, in_slot);
                inside(v.with, pointer + "/with", u, 1, u.each);
                plan.units.push_back(std::move(u));
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
                PlacementUnit u;
                u.kind = PlacementUnit::Kind::groups;
                u.at = {&v, pointer};
                u.multiplier = multiplier;
                if (v.is_slot()) {
                    u.slots_each = 1;
                    inside(v.with, pointer + "/with", u, 1, u.each);
                } else if (grouping(v)) {
                    // A socket (say) of slots with no node: each on one node.
                    unchecked(v, pointer);
                    inside(v.with, pointer + "/with", u, 1, u.each);
                } else {
                    // A core or gpu outside a slot: each one anywhere.
                    leaf(v, pointer, u, 1, u.each);
                }
                plan.units.push_back(std::move(u));
            }
        }
    }

private:
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
             Demand& d) {
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
            inside(v.with, pointer + "/with", u, count, d);
            return;
        }
        leaf(v, pointer, u, count, d);
    }

    void leaf(const ResourceVertex& v, const std::string& pointer, PlacementUnit& u,
              std::uint64_t count, Demand& d) {
        if (!v.with.empty()) {
            why.add(Code::match_unsupported,
                    fmt::format("R version 1 has nothing inside a {}", v.type),
                    Location(v.range, pointer + "/with"));
            return;
        }
        VertexAt& first = v.type == "core" ? u.core : u.gpu;
        if (first.vertex == nullptr)
            first = {&v, pointer};
        std::uint64_t& total = v.type == "core" ? d.cores : d.gpus;
        total = saturating_sum(total, count);
    }

    std::vector<std::string> warned_;

    void inside(const ResourceList& list, const std::string& prefix, PlacementUnit& u,
                std::uint64_t n, Demand& d) {
        for (std::size_t i = 0; i < list.size(); ++i)
            one(list[i], fmt::format("{}/{}", prefix, i), u, n, d);
    }
};

} // namespace

Result<PlacementPlan> placement_plan(const ResourceList& resources) {
    Planner p;
    p.above_nodes(resources, "/resources", 1, false);
    if (p.why.has_errors())
        return Result<PlacementPlan>(std::move(p.why));
    return {std::move(p.plan), std::move(p.why)};
}

} // namespace jobspec::sema
