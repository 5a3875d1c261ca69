// allocate: the jobspec onto R, by sema's first fit.
#include <jobspec/feasibility.hpp>

#include "sema/first_fit.hpp"

namespace jobspec {

Result<ResourceSet> allocate(const Jobspec& jobspec, const ResourceSet& r, Dialect dialect) {
    return sema::first_fit(jobspec, r, dialect);
}

} // namespace jobspec
