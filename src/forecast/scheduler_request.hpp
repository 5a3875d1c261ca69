// A job's resources as a scheduler's allocator reads them: flux-core's reduction of the
// resource graph to node and slot counts (its ResourceRequest), which Fluxion's rv1exec
// graph is matched by too in the forecast (docs/SCHEDULERS.md, "The request").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <jobspec/idset.hpp>
#include <jobspec/jobspec_model.hpp>

namespace jobspec::forecasting {

/// A count as the allocator takes it: least and most (none: unbounded), and whether it
/// is a set of values (stepped or an idset), which flux-core's allocator cannot honour.
struct RequestCount {
    std::uint64_t min = 1;
    std::optional<std::uint64_t> max = 1;
    bool stepped = false;
};

/// What the allocator reads of a jobspec: the last node and slot vertices the walk meets
/// (with the product of the counts above the node), the cores and GPUs of a slot, whether
/// the job is exclusive, and its duration.
struct SchedulerRequest {
    /// Why the allocator cannot read it ("" when it can): "no slot", "no core".
    std::string unreadable;
    /// The node count, when a node vertex is there (for an exclusive job without one, the
    /// slot count: one slot per whole node).
    std::optional<RequestCount> nodes;
    /// Slots per node when `nodes` is there, else in all.
    RequestCount slots;
    std::uint64_t slot_cores = 1;
    std::uint64_t slot_gpus = 0;
    bool exclusive = false;
    /// Seconds; 0 is no limit.
    double duration = 0;
    /// The ranks its constraints (and its queue's) allow; set by the caller.
    IdSet candidates;
    /// Whether the jobspec has constraints of its own (Fluxion counts their nodes).
    bool constrained = false;

    std::uint64_t least_nodes() const { return nodes ? nodes->min : 0; }
    /// The least number of slots in all.
    std::uint64_t least_slots() const;
};

/// The allocator's reading of `jobspec`.
SchedulerRequest scheduler_request(const Jobspec& jobspec);

} // namespace jobspec::forecasting
