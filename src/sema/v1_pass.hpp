// The V1 (RFC 25) pass: the restricted dialect, checked over the same model.
#pragma once

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

namespace jobspec::sema {

/// Checks RFC 25 on a jobspec the canonical pass has seen: version 1; one resource, node
/// or slot; only the graphs slot>core, node>slot>core, slot>(core,gpu) and
/// node>slot>(core,gpu); fixed integer counts; only the keys RFC 25's schema allows in
/// each vertex (exclusive on node and slot); one task with command, slot and count only,
/// per_slot 1 or total at least the node count; system attributes with a duration.
/// Each problem is a v1.* diagnostic naming the rule.
void check_v1(const Jobspec& jobspec, Diagnostics& diagnostics);

} // namespace jobspec::sema
