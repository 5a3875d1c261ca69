// The canonical (RFC 14) pass over a whole jobspec.
#pragma once

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

namespace jobspec::sema {

/// Checks a jobspec as RFC 14 asks: its resources (check_resources), each task's slot
/// naming a slot label and a per_resource type declared in that slot, attributes holding
/// the types RFC 14 gives them (a task's environment an Environment, its other attributes
/// JSON; each system attribute its own type, see AttributeValue), duration and
/// preemptible-after >= 0, and each dependency's scheme rules (check_dependency). Other
/// system attributes are warnings. The structure of values read from documents was
/// checked when they were read (lower_attribute). The Fluxion dialect does not match task
/// slots with labels (Fluxion reads neither) and lets labels repeat: the jobspec's dialect
/// says which.
void check_canonical(const Jobspec& jobspec, Diagnostics& diagnostics);

} // namespace jobspec::sema
