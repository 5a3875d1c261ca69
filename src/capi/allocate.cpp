// The C API's allocation of R for a jobspec (jobspec match).
#include <jobspec/document.hpp>
#include <jobspec/feasibility.hpp>

#include "capi/handles.hpp"

using namespace jobspec::capi;

extern "C" {

jobspec_rset* jobspec_allocate(const char* document, const jobspec_rset* r,
                               const jobspec_options* options, jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        if (!require(document, "document", error) || !require(r, "r", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto jobspec = jobspec::read_jobspec(document, {o.format, o.v1, o.limits, o.dialect});
        if (!succeeded(jobspec, o, document, error))
            return nullptr;
        auto allocation = jobspec::allocate(jobspec.value(), r->value, o.dialect);
        if (!succeeded(allocation, o, document, error))
            return nullptr;
        return new jobspec_rset{std::move(allocation).value()};
    });
}

} // extern "C"
