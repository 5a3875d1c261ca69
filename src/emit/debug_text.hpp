// The ResourceGraph IR as text, for the grammar debugger's pass-by-pass view (the other
// views are public: <jobspec/grammar_view_model.hpp>).
#pragma once

#include <string>

#include <jobspec/resource_graph.hpp>

namespace jobspec::emit {

/// The ResourceGraph IR: a vertex per line as "type ×count", then its keys as
/// key=JSON, indented by containment; with `ranges`, each line ends with its range.
std::string ir_text(const ResourceList& resources, bool ranges);

} // namespace jobspec::emit
