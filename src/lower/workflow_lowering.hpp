// Document tree -> workflow jobs.
#pragma once

#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/workflow_model.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// Reads a list of jobs (see read_workflow), parsing URI dependencies with their ranges
/// moved to where they stand in `text`. Reports dependency.workflow for malformed jobs
/// (and the URIs' own syntax errors); the result is meaningful only without errors.
/// `pointers` gets the JSON pointer of every dependency, job by job in order, for the
/// scheme rules that the caller checks next (check_dependency).
std::vector<WorkflowJob> lower_workflow(const syntax::DocNode& root, std::string_view text,
                                        Diagnostics& diagnostics,
                                        std::vector<std::string>& pointers);

} // namespace jobspec::lower
