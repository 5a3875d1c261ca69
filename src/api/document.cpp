// read_jobspec and check_jobspec: the document pipeline, read -> lower -> sema.
#include <jobspec/document.hpp>

#include "lower/attribute_lowering.hpp"
#include "lower/jobspec_lowering.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

Result<Jobspec> read_jobspec(std::string_view text, const ReadOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto root = syntax::read_document(text, options.format, options.limits, diagnostics);
    if (!root) {
        diagnostics.sort_by_position();
        return Result<Jobspec>(std::move(diagnostics));
    }
    Jobspec jobspec = lower::lower_jobspec(*root, diagnostics);
    sema::check_canonical(jobspec, diagnostics);
    if (options.v1)
        sema::check_v1(jobspec, diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Jobspec>(std::move(diagnostics));
    return {std::move(jobspec), std::move(diagnostics)};
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
