// Workflows: jobs in submission order with RFC 26 dependencies, resolved into a DAG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// One job of a workflow.
struct WorkflowJob {
    std::string name;
    /// Its FLUID, which after* and fluid dependencies refer to.
    std::optional<std::uint64_t> id;
    /// The submitting user; user-scoped dependencies only match the same user's jobs.
    std::string user = "user";
    std::vector<Dependency> dependencies;
    /// A job an after* dependency names but the workflow does not list.
    bool external = false;
};

/// "to" depends on "from" because of the dependency scheme:value.
struct WorkflowEdge {
    std::size_t from = 0;
    std::size_t to = 0;
    std::string scheme;
    std::string value;
};

/// A resolved workflow: its jobs (listed ones in submission order, then external ones),
/// the dependency edges, and an order in which the jobs may run.
struct Workflow {
    std::vector<WorkflowJob> jobs;
    std::vector<WorkflowEdge> edges;
    std::vector<std::size_t> order;
};

/// Reads a workflow: a YAML or JSON list of jobs in submission order, each a dictionary
/// with `name` (unique), optional `id` (a FLUID in any encoding), optional `user` and
/// optional `dependencies`, a list of RFC 26 objects or URI strings. Then resolves it
/// (resolve_workflow). Fails with jobspec.*, dependency.* and limit.* diagnostics.
JOBSPEC_API Result<Workflow> read_workflow(std::string_view text, const ReadOptions& options = {});

/// Resolves the dependencies of jobs in submission order into edges, as RFC 26 says:
///  - string and fluid: an `in` or `inout` job depends on every earlier `out` or `inout`
///    job with the same value since the last `inout`, when both dependencies' scopes
///    allow it (`user` scope: the same user's jobs only; `global`: every job); when any
///    job uses them, every job with an id also gets the automatic fluid `out` of its id,
///    in global scope (an id is public), as RFC 26 example 2 needs;
///  - after, afterstart, afterany, afterok, afternotok, afterexcept: the job depends on
///    the job with that id, added as external when the workflow does not list it.
/// Fails with dependency.cycle when the edges leave no order in which the jobs can run.
JOBSPEC_API Result<Workflow> resolve_workflow(std::vector<WorkflowJob> jobs);

} // namespace jobspec
