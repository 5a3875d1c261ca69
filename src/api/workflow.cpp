// read_workflow: read -> lower -> resolve.
#include <jobspec/workflow.hpp>

#include "lower/workflow_lowering.hpp"
#include "syntax/document.hpp"

namespace jobspec {

Result<Workflow> read_workflow(std::string_view text, const ReadOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto root = syntax::read_document(text, options.format, options.limits, diagnostics);
    if (!root)
        return Result<Workflow>(std::move(diagnostics));
    auto jobs = lower::lower_workflow(*root, text, diagnostics);
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
