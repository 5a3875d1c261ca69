// read_jobspec and check_jobspec: the document pipeline, read -> lower -> sema.
#include <jobspec/document.hpp>

#include <algorithm>

#include "api/jobspec_checks.hpp"
#include "api/jobspec_reading.hpp"
#include "lower/document_fixes.hpp"
#include "lower/jobspec_lowering.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

namespace api {

Result<Jobspec> jobspec_from_tree(const syntax::DocNode& root, std::string_view text,
                                  const ReadOptions& options, Diagnostics diagnostics) {
    Jobspec jobspec = lower::lower_jobspec(root, options.dialect, diagnostics);
    JobspecChecks checks;
    checks.limits = &options.limits;
    checks.v1 = options.v1;
    if (options.flux_instance)
        checks.flux_instance = options.flux_instance_size;
    check_model(jobspec, checks, diagnostics);
    if (!text.empty())
        diagnostics = lower::with_document_fixes(std::move(diagnostics), root, text,
                                                 options.limits.max_diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Jobspec>(std::move(diagnostics));
    return {std::move(jobspec), std::move(diagnostics)};
}

} // namespace api

Result<Jobspec> read_jobspec(std::string_view text, const ReadOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    Limits limits = options.limits;
    if (options.flux_instance)
        limits.max_depth = std::min(limits.max_depth, ReadOptions::flux_depth_ceiling);
    auto root = syntax::read_document(text, options.format, limits, diagnostics);
    if (!root) {
        diagnostics.sort_by_position();
        return Result<Jobspec>(std::move(diagnostics));
    }
    return api::jobspec_from_tree(*root, text, options, std::move(diagnostics));
}

Diagnostics check_jobspec(const Jobspec& jobspec, bool v1) {
    Diagnostics diagnostics;
    api::JobspecChecks checks;
    checks.attribute_structure = true;
    checks.text_encoding = true;
    checks.v1 = v1;
    api::check_model(jobspec, checks, diagnostics);
    return diagnostics;
}

} // namespace jobspec
