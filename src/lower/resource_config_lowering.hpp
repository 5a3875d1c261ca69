// Flux's resource.config array (document tree) -> ResourceSet.
#pragma once

#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_set_model.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// The resource.config array `config` as R, as `flux R parse-config` makes it (see
/// read_resource_config). Diagnostics have pointers under /resource/config and the
/// tree's ranges. The set is meaningful only when no error was added.
ResourceSet lower_resource_config(const syntax::DocNode& config, Diagnostics& diagnostics);

} // namespace jobspec::lower
