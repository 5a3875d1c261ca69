// The canonical (RFC 14) pass over a resource list.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_graph.hpp>

namespace jobspec::sema {

/// Checks what RFC 14 asks of resource vertices beyond their type and count: slots have
/// a label and a `with`; labels are unique; a written `with` is not empty; label, unit and
/// id are strings and exclusive a boolean. Keys outside RFC 14's vertex keys are
/// jobspec.unknown-vertex-key warnings. `pointer` is the list's JSON pointer ("" for a
/// shape, "/resources" in a jobspec); each diagnostic carries the pointer of what it is
/// about, and the source range when the vertex has one. The Fluxion dialect lets labels
/// repeat and leaves unknown keys to the reader (fluxion.key).
void check_resources(const ResourceList& resources, std::string_view pointer,
                     Diagnostics& diagnostics, Dialect dialect = Dialect::rfc);

} // namespace jobspec::sema
