// First fit of a V1 jobspec onto R.
#pragma once

#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

namespace jobspec::sema {

/// See jobspec::allocate: one allocation of R for a V1 jobspec, first fit over the ranks
/// that satisfy its constraints, or why there is none.
Result<ResourceSet> first_fit(const Jobspec& jobspec, const ResourceSet& r);

} // namespace jobspec::sema
