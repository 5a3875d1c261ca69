// allocate: the jobspec onto R, by sema's first fit.
#include <jobspec/feasibility.hpp>

#include "sema/first_fit.hpp"

namespace jobspec {

Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r,
                             const AllocateOptions& options) {
    sema::Ground ground;
    ground.free = options.free ? &*options.free : nullptr;
    ground.also = options.also ? &*options.also : nullptr;
    return sema::first_fit(jobspec, r, options.dialect, ground);
}

Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r, Dialect dialect) {
    return sema::first_fit(jobspec, r, dialect);
}

} // namespace jobspec
