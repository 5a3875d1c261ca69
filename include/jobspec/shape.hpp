// Compiling RFC 46 resource shapes ("slot=4{nodelevel}/node{-x}/socket=2+/core=4+").
#pragma once

#include <string>
#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_graph.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// How a shape is read.
struct ShapeOptions {
    /// The label given to the only slot of a shape when it has none (flux-core uses "task").
    std::string default_label = "default";
    Limits limits;
};

/// Compiles a shape into its RFC 14 resource list: syntax, lowering and the canonical
/// pass over the resources. Fails with shape.*, jobspec.* and limit.* diagnostics whose
/// ranges are byte offsets into `text`; warnings (jobspec.unknown-vertex-key) come with
/// a value. Example: "slot=2/core" -> [{type slot, count 2, label "default", with [{core}]}].
JOBSPEC_API Result<ResourceList> compile_shape(std::string_view text,
                                               const ShapeOptions& options = {});

} // namespace jobspec
