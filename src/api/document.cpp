// read_jobspec and check_jobspec: the document pipeline, read -> lower -> sema.
#include <jobspec/document.hpp>

#include <algorithm>

#include "api/jobspec_reading.hpp"
#include "lower/attribute_lowering.hpp"
#include "lower/document_fixes.hpp"
#include "lower/jobspec_lowering.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/flux_instance.hpp"
#include "sema/size_limits.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

namespace api {

Result<Jobspec> jobspec_from_tree(const syntax::DocNode& root, std::string_view text,
                                  const ReadOptions& options, Diagnostics diagnostics) {
    Jobspec jobspec = lower::lower_jobspec(root, options.dialect, diagnostics);
    sema::check_canonical(jobspec, diagnostics);
    sema::check_sizes(jobspec, options.limits, diagnostics);
    if (options.v1)
        sema::check_v1(jobspec, diagnostics);
    if (options.flux_instance)
        sema::check_flux_instance(jobspec, options.flux_instance_size, diagnostics);
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
    lower::check_attribute_structure(jobspec, diagnostics);
    sema::check_text_encoding(jobspec, diagnostics);
    sema::check_canonical(jobspec, diagnostics);
    if (v1)
        sema::check_v1(jobspec, diagnostics);
    return diagnostics;
}

} // namespace jobspec
