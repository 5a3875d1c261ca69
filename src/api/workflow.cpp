// read_workflow: read -> lower -> check each dependency's scheme rules -> resolve.
#include <jobspec/workflow.hpp>

#include <jobspec/dependency_rules.hpp>

#include "lower/workflow_lowering.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

Result<Workflow> read_workflow(std::string_view text, const ReadOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto root = syntax::read_document(text, options.format, options.limits, diagnostics);
    if (!root)
        return Result<Workflow>(std::move(diagnostics));
    std::vector<std::string> pointers;
    auto jobs = lower::lower_workflow(*root, text, diagnostics, pointers);
    auto pointer = pointers.begin();
    for (const auto& job : jobs)
        for (const auto& dependency : job.dependencies)
            check_dependency(dependency, DependencyContext::command_line, false, *pointer++,
                             diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Workflow>(std::move(diagnostics));
    auto resolved = resolve_workflow(std::move(jobs));
    diagnostics.append(resolved.diagnostics());
    if (!resolved.ok())
        return Result<Workflow>(std::move(diagnostics));
    return {std::move(resolved).value(), std::move(diagnostics)};
}

} // namespace jobspec
