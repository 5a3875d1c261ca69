// The C API's allocation of R for a jobspec (jobspec match).
#include <jobspec/document.hpp>
#include <jobspec/feasibility.hpp>

#include "capi/handles.hpp"

using namespace jobspec::capi;

extern "C" {

jobspec_rset* jobspec_allocate_now(const char* document, const jobspec_rset* r,
                                   const jobspec_rset* free, const jobspec_options* options,
                                   jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        if (!require(document, "document", error) || !require(r, "r", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto jobspec = jobspec::read_jobspec(document, o.read_options());
        if (!succeeded(jobspec, o, document, error))
            return nullptr;
        jobspec::AllocateOptions allocate;
        allocate.dialect = o.dialect;
        if (free != nullptr)
            allocate.free = free->value;
        if (!o.config.empty()) {
            auto queue = jobspec::queue_of(jobspec.value(), o.config, o.queue, o.limits);
            if (!succeeded(queue, o, "", error))
                return nullptr;
            allocate.queue = std::move(queue).value();
        }
        auto allocation = jobspec::allocate(jobspec.value(), r->value, allocate);
        if (!succeeded(allocation, o, document, error))
            return nullptr;
        return new jobspec_rset{std::move(allocation).value()};
    });
}

jobspec_rset* jobspec_allocate(const char* document, const jobspec_rset* r,
                               const jobspec_options* options, jobspec_error** error) {
    return jobspec_allocate_now(document, r, nullptr, options, error);
}

} // extern "C"
