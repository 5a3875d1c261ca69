// The resources and task count of a flux submission (-n, -N, -c, -g, -x and the
// per-resource options), as flux-core 0.88's from_command / slot builders lay them out.
#pragma once

#include <optional>

#include <boost/json/object.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::lower {

struct SubmissionLayout {
    ResourceList resources;
    TaskCount count; // tasks[0].count
    /// shell.options.per-resource from --tasks-per-node / --tasks-per-core.
    std::optional<boost::json::object> per_resource;
};

/// The layout; `force_one_node` is set when a resources plugin option replaces the
/// resources afterwards (flux then lays out -N1). Nothing, with submit.value or
/// submit.layout, when the counts are malformed or do not fit together.
std::optional<SubmissionLayout> submission_layout(const SubmitOptions& options,
                                                  bool force_one_node, Diagnostics& diagnostics);

} // namespace jobspec::lower
