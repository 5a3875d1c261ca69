// The size limits of a request: how many resource vertices and constraint terms it has.
#pragma once

#include <cstddef>
#include <string_view>

#include <jobspec/constraint_model.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::sema {

/// Reports limit.vertices at the first vertex past `max`, counting in document order
/// (a vertex before the ones it holds) at every level; pointers under `pointer`. Stops
/// counting there, so the walk costs at most `max` + 1 vertices.
void check_vertex_count(const ResourceList& resources, std::size_t max, std::string_view pointer,
                        Diagnostics& diagnostics);

/// Reports limit.constraint-terms at `where` when `constraint` has more than `max`
/// terms: each operator and each of its values is one ({"or": [{"properties": ["a",
/// "b"]}]} has four).
void check_constraint_terms(const Constraint& constraint, std::size_t max, const Location& where,
                            Diagnostics& diagnostics);

/// Both over a jobspec: its resources, and attributes.system.constraints.
void check_sizes(const Jobspec& jobspec, const Limits& limits, Diagnostics& diagnostics);

} // namespace jobspec::sema
