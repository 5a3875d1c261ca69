// Document tree -> workflow jobs.
#pragma once

#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/workflow.hpp>

#include "syntax/document.hpp"

namespace jobspec::lower {

/// Reads a list of jobs (see read_workflow), parsing URI dependencies with their ranges
/// moved to where they stand in `text`, and checking every dependency's scheme rules.
/// Reports dependency.workflow for malformed jobs; the result is meaningful only without
/// errors.
std::vector<WorkflowJob> lower_workflow(const syntax::DocNode& root, std::string_view text,
                                        Diagnostics& diagnostics);

} // namespace jobspec::lower
