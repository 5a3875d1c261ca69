// The canonical (RFC 14) pass over a whole jobspec.
#pragma once

#include <jobspec/diagnostic.hpp>
#include <jobspec/document.hpp>

namespace jobspec::sema {

/// Checks a jobspec as RFC 14 asks: its resources (check_resources), each task's slot
/// naming a slot label and a per_resource type declared in that slot, task attributes
/// (environment values strings or null, other values strings), and the system
/// attributes RFC 14 defines (duration and preemptible-after numbers >= 0, environment,
/// cwd, queue, bank, project, dependencies as RFC 26 objects, constraints as RFC 31
/// objects, job, shell, files). Other system attributes are warnings.
void check_canonical(const Jobspec& jobspec, Diagnostics& diagnostics);

} // namespace jobspec::sema
