// Can this jobspec run on these resources? One allocation, or what is missing: the one
// door to matching, for every tool and binding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// What matching takes besides the jobspec and R.
struct MatchOptions {
    /// How the jobspec text is read: its dialect (a Jobspec already read records its own),
    /// format and limits, which reading the configuration keeps to as well.
    ReadOptions read;
    /// What is free now (part of R). With it, a request that fits R but not what is free
    /// fails with match.pending, saying which requirement waits and for what.
    std::optional<ResourceSet> free;
    /// Flux's configuration (a directory's *.toml files, or one file; empty: none), where
    /// the job's queue (RFC 33) is found as read_queue_at finds it: `queue` when not
    /// empty, else the jobspec's system.queue, else the configured default. Its jobs must
    /// have its properties (requires) and be on its hosts, which have its membership
    /// property (+NAME).
    std::string config;
    /// Flux's configuration already read (a running instance's, from config.get, as one
    /// JSON file), used as `config` would be when `config` is empty.
    std::vector<ConfigFile> config_files;
    std::string queue;
    /// The most steps the placement may take, or none for no limit. A step is a small,
    /// bounded piece of the search (a run of ranks tried, a graph vertex looked at, a turn
    /// of the node assignment's flow); a placement that would take more stops with
    /// match.budget, so that its cost is bounded whatever the jobspec.
    std::optional<std::uint64_t> max_steps;
};

/// Reads a jobspec as read_jobspec does (with options.read) and finds one allocation of R
/// for it, placed in rank order over the ranks that satisfy its constraints:
///   - each node vertex's nodes are different ranks that each hold what the node
///     contains (all of the rank when the node is exclusive, as a node inside a task slot
///     is unless it says otherwise);
///   - a task slot with no node in it is on one rank, packed onto the ranks in order
///     after the nodes; so is each core or gpu written outside a slot;
///   - several node vertices share the ranks as a maximum flow finds they can.
/// Counts take flux-core's scheduler's rule: a node vertex's count, and the count of a
/// slot with no node above or in it, take as many as fit (the greatest acceptable value
/// of a range or an idset); every other count takes its least value. The allocation has
/// nslots set and leaves out instance-local (+) properties, as RFC 20 asks of schedulers.
/// A type R version 1 does not describe that holds others (a socket) stands for what it
/// holds, count times, with a match.unchecked warning. Errors: read_jobspec's (located in
/// `text`); read_queue_at's (located in the configuration); match.unsupported for what R
/// version 1 cannot place (memory, a node in a node); jobspec.unsatisfiable at the first
/// requirement no choice of ranks meets, level by level ("asks 4 nodes with 8 cores each:
/// of the 16 nodes, 10 match the constraints, 3 of those have 8 cores"), followed by
/// match.constraint notes on which nodes each constraint term removed; with `free`,
/// match.pending when it fits R but not what is free; match.queue when the queue's hosts
/// are not all hosts of R. In the Fluxion dialect, as Fluxion's flexible traverser tries
/// xor_slots: each choice of resources they stand for in its order (at most 1000, else
/// limit.expansion), the first that fits winning; and slots side by side are Fluxion's
/// or-slots: as many instances as the last one's count (jobspec.unsatisfiable when that is
/// less than another's), each of any of their shapes, on one rank, each the earliest shape
/// after which the rest still fit (as Fluxion's search chooses); or-slots of nodes when
/// each holds one node; anything else beside or-slots is match.unsupported. With
/// options.max_steps, match.budget when placing it would take more steps: the job is then
/// not judged (neither placed nor explained). The result carries the jobspec's warnings
/// too.
JOBSPEC_API Result<ResourceSet> match_jobspec(std::string_view text, const ResourceSet& r,
                                              const MatchOptions& options = {});
/// match_jobspec of a jobspec already read (or built in code: its canonical pass is the
/// caller's), by the rules of the dialect it records; only options.read's limits are used.
JOBSPEC_API Result<ResourceSet> match_jobspec(const Jobspec& jobspec, const ResourceSet& r,
                                              const MatchOptions& options = {});

} // namespace jobspec
