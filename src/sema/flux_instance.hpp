// The Flux instance pass: what flux-core cannot hold, though RFC 14 allows it.
#pragma once

#include <cstdint>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

namespace jobspec::sema {

/// Reports, as flux.* errors with JSON pointers, what a Flux instance (flux-core 0.88
/// with its scheduler, sched-simple) refuses, cannot read or stops on in a jobspec RFC
/// 14 allows. Each would fail more than the job: the job manager fails every job
/// submitted with it, or the scheduler stops (and the instance with it) or stalls.
///   flux.attributes-null  `attributes: null` (the job manager reads attributes.system)
///   flux.constraint       a constraint the scheduler cannot evaluate: `not` with no
///                         constraint; `ranks` values that, sorted as text and joined
///                         (as flux-core reads them), are not one ascending idset
///   flux.idset-range      an id of 2^31 or more in `ranks` or a count (libidset's bound)
///   flux.rank-range       with `size` (the instance's ranks, 0: unknown), a rank it
///                         does not have (the scheduler builds an idset up to the largest
///                         rank named, for every rank it tries)
///   flux.hostlist         a hostlist libhostlist refuses (a range of more than 2^20
///                         hosts, more than 10240 ranges in a bracket) or spells out
///                         host by host past 2^20 hosts (ranges followed by a suffix)
///   flux.count            a count the scheduler cannot expand into its values: a
///                         stepped range with no maximum, of more than 65536 values, a
///                         '^' operand past 64, or values (idsets too) past 2^20
void check_flux_instance(const Jobspec& jobspec, std::uint64_t size, Diagnostics& diagnostics);

} // namespace jobspec::sema
