// Document tree -> Jobspec model.
#pragma once

#include <optional>
#include <string>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// Reads a document's structure into the model, as RFC 14's schema describes it: the
/// required keys and their types, resource vertices (type, count in its three forms,
/// with), tasks (command, slot, count, distribution, attributes) and the attributes,
/// each into its type (see lower_attribute). Reports jobspec.*, constraint.* and
/// limit.integer diagnostics with pointers and ranges, carrying on past each so one run
/// reports them all; the model is meaningful only when no error was added. In the Fluxion
/// dialect it also reports, as fluxion.*, what Fluxion's reader refuses (Dialect).
Jobspec lower_jobspec(const syntax::DocNode& root, Dialect dialect, Diagnostics& diagnostics);

/// One member of a document's `attributes` read into `attributes` as lower_jobspec reads
/// it: `system` (replacing the list), `user`, or a key RFC 14 forbids there
/// (jobspec.forbidden-key). What `flux run -S .KEY=VALUE` sets. Pointers start at
/// /attributes.
void lower_attributes_member(const std::string& key, const syntax::DocNode& value,
                             Attributes& attributes, Dialect dialect, Diagnostics& diagnostics);

/// A `resources` list read as lower_jobspec reads it (pointers start at /resources).
ResourceList lower_resources(const syntax::DocNode& resources, Dialect dialect,
                             Diagnostics& diagnostics);

/// What Fluxion's reader refuses in resources built in code (flux's layouts, shapes), in
/// the form the JSON emitter writes them: vertex keys outside its set, counts written as
/// strings (idsets), numbers beyond its integers, ranges with some of max, operator and
/// operand (fluxion.key, fluxion.count, at pointers under /resources).
void check_fluxion_resources(const ResourceList& resources, Diagnostics& diagnostics);

} // namespace jobspec::lower
