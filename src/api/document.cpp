// read_jobspec and check_jobspec: the document pipeline, read -> lower -> sema.
#include <jobspec/document.hpp>

#include "lower/jobspec_lowering.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/v1_pass.hpp"
#include "syntax/document.hpp"

namespace jobspec {

namespace {

DocumentFormat sniff(std::string_view text) {
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        return c == '{' || c == '[' ? DocumentFormat::json : DocumentFormat::yaml;
    }
    return DocumentFormat::yaml;
}

} // namespace

Result<Jobspec> read_jobspec(std::string_view text, const ReadOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    const DocumentFormat format =
        options.format == DocumentFormat::automatic ? sniff(text) : options.format;
    auto root = format == DocumentFormat::json
                    ? syntax::read_json(text, options.limits, diagnostics)
                    : syntax::read_yaml(text, options.limits, diagnostics);
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
    sema::check_canonical(jobspec, diagnostics);
    if (v1)
        sema::check_v1(jobspec, diagnostics);
    return diagnostics;
}

} // namespace jobspec
