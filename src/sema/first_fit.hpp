// First fit of a V1 jobspec onto R.
#pragma once

#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

namespace jobspec::sema {

/// See jobspec::allocate: one allocation of R for a V1 jobspec, first fit over the ranks
/// that satisfy its constraints, or why there is none. In the Fluxion dialect, each of
/// the jobspec's xor_slot candidates in turn (sema/xor_candidates.hpp), the first that
/// fits winning, with Fluxion's version and task slot left unchecked.
Result<ResourceSet> first_fit(const Jobspec& jobspec, const ResourceSet& r,
                              Dialect dialect = Dialect::rfc);

} // namespace jobspec::sema
