#include "forecast/scheduler_request.hpp"

#include <algorithm>
#include <limits>

#include "support/numbers.hpp"

namespace jobspec::forecasting {

namespace {

RequestCount request_count(const Count& count) {
    if (count.is_fixed())
        return {count.fixed(), count.fixed(), false};
    if (count.is_idset())
        return {count.least(), count.greatest_at_most(std::numeric_limits<std::uint64_t>::max()),
                true};
    const CountRange& r = count.range();
    const bool stepped = !(r.op == RangeOperator::add && r.operand == 1);
    return {r.min, r.max, stepped && r.max.has_value()};
}

RequestCount scaled(RequestCount c, std::uint64_t factor) {
    c.min = support::saturating_product(c.min, factor);
    if (c.max)
        c.max = support::saturating_product(*c.max, factor);
    return c;
}

/// The walk of flux-core's reduction: every vertex, depth first, the last of each kind
/// winning; the counts of what is not a node multiply into what is below.
struct Walk {
    std::optional<RequestCount> nodes;
    std::optional<RequestCount> slots;
    std::optional<std::uint64_t> cores;
    std::uint64_t gpus = 0;
    bool exclusive = false;
    std::uint64_t node_factor = 1;

    void visit(const ResourceList& list, std::uint64_t factor) {
        for (const auto& v : list) {
            const RequestCount count = request_count(v.count);
            const auto* flag = v.find("exclusive");
            const bool exclusive_here =
                flag != nullptr && flag->value.is_bool() && flag->value.get_bool();
            if (v.type == "node") {
                nodes = count;
                node_factor = factor;
                exclusive = exclusive || exclusive_here;
                visit(v.with, factor);
                continue;
            }
            if (v.type == "slot") {
                slots = count;
                exclusive = exclusive || exclusive_here;
            } else if (v.type == "core") {
                cores = count.min;
            } else if (v.type == "gpu") {
                gpus = count.min;
            }
            visit(v.with, support::saturating_product(factor, count.min));
        }
    }
};

} // namespace

std::uint64_t SchedulerRequest::least_slots() const {
    return nodes ? support::saturating_product(slots.min, nodes->min) : slots.min;
}

SchedulerRequest scheduler_request(const Jobspec& jobspec) {
    Walk walk;
    walk.visit(jobspec.resources, 1);
    SchedulerRequest out;
    if (!walk.slots)
        out.unreadable = "it has no slot, which flux-core's scheduler needs";
    else if (!walk.cores)
        out.unreadable = "its slot has no core, which flux-core's scheduler needs";
    if (!out.unreadable.empty())
        return out;
    out.slots = *walk.slots;
    out.slot_cores = *walk.cores;
    out.slot_gpus = walk.gpus;
    out.exclusive = walk.exclusive;
    if (walk.nodes)
        out.nodes = scaled(*walk.nodes, walk.node_factor);
    if (out.exclusive && !out.nodes) { // each slot a whole node of its own
        out.nodes = out.slots;
        out.slots = RequestCount{};
    }
    out.duration = jobspec.attributes.duration().value_or(0);
    out.constrained = jobspec.attributes.constraints() != nullptr;
    return out;
}

} // namespace jobspec::forecasting
