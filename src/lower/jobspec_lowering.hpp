// Document tree -> Jobspec model.
#pragma once

#include <optional>

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

} // namespace jobspec::lower
