// Workflows: reading a list of jobs with dependencies, and resolving it.
#pragma once

#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/result.hpp>
#include <jobspec/workflow_graph.hpp>
#include <jobspec/workflow_model.hpp>

namespace jobspec {

/// Reads a workflow: a YAML or JSON list of jobs in submission order, each a dictionary
/// with `name` (unique), optional `id` (a FLUID in any encoding), optional `user` and
/// optional `dependencies`, a list of RFC 26 objects or URI strings. Then resolves it
/// (resolve_workflow). Fails with jobspec.*, dependency.* and limit.* diagnostics.
JOBSPEC_API Result<Workflow> read_workflow(std::string_view text, const ReadOptions& options = {});

} // namespace jobspec
