// A jobspec as flux-core 0.88's submission commands print it (`flux run --dry-run`).
#pragma once

#include <cstdint>

#include <boost/json/value.hpp>

#include <jobspec/jobspec_model.hpp>

namespace jobspec::emit {

/// The order a resource vertex's keys are written in.
enum class FluxVertexOrder : std::uint8_t {
    /// As flux's own layouts (-n, -N, -c, -g, -x) write them: a slot's other keys after
    /// `with`, another vertex's before it.
    layout,
    /// RFC 14's canonical order (to_json_value), as flux's shape plugin writes them.
    canonical,
};

/// The jobspec with flux's top-level order (resources, tasks, attributes, version) and
/// attributes in the order they were set. `resources_as_written`, when given, is written
/// in place of the model's resources: flux prints --resources-json's as the file has them.
boost::json::value flux_submission_json(const Jobspec& jobspec, FluxVertexOrder order,
                                        const boost::json::value* resources_as_written);

} // namespace jobspec::emit
