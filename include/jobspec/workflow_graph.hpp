// Resolving a workflow's dependencies into its graph (RFC 26).
#pragma once

#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/result.hpp>
#include <jobspec/workflow_model.hpp>

namespace jobspec {

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
