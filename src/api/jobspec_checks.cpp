#include "api/jobspec_checks.hpp"

#include "lower/attribute_lowering.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/flux_instance.hpp"
#include "sema/size_limits.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"

namespace jobspec::api {

void check_model(const Jobspec& jobspec, const JobspecChecks& checks, Diagnostics& diagnostics) {
    if (checks.attribute_structure)
        lower::check_attribute_structure(jobspec, diagnostics);
    if (checks.text_encoding) {
        const std::size_t before = diagnostics.error_count();
        sema::check_text_encoding(jobspec, diagnostics);
        if (diagnostics.error_count() > before)
            return;
    }
    const std::size_t before_canonical = diagnostics.error_count();
    sema::check_canonical(jobspec, diagnostics);
    if (checks.limits != nullptr)
        sema::check_sizes(jobspec, *checks.limits, diagnostics);
    if (checks.v1 &&
        !(checks.v1_only_when_canonical && diagnostics.error_count() > before_canonical))
        sema::check_v1(jobspec, diagnostics);
    if (checks.flux_instance)
        sema::check_flux_instance(jobspec, *checks.flux_instance, diagnostics);
}

} // namespace jobspec::api
