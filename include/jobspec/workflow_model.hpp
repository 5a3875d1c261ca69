// Workflows: jobs in submission order with RFC 26 dependencies, resolved into edges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jobspec/dependency_model.hpp>

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

} // namespace jobspec
