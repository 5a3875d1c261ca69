// Fluxion's xor_slot: one jobspec's resources as the candidate resource lists it stands for.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_graph.hpp>

namespace jobspec::match {

/// The resource lists a Fluxion jobspec stands for, in the order Fluxion's flexible
/// traverser tries them (its split of xor_slots): at each level, the siblings that are not
/// xor_slots are combined in every way their own contents can be (the earlier sibling
/// varying slowest), and with them exactly one of the level's xor_slots, which becomes a
/// slot with its label and count, after the other siblings. A list without xor_slots is
/// its own only candidate. Nothing when there would be more than `most` candidates.
std::optional<std::vector<ResourceList>> xor_candidates(const ResourceList& resources,
                                                        std::size_t most);

/// Fluxion tries at most this many xor_slot candidates (its SYSTEM_MAX_XOR_EXPANSION).
inline constexpr std::size_t max_xor_candidates = 1000;

/// limit.expansion for a jobspec whose xor_slots stand for more than max_xor_candidates.
Diagnostics too_many_xor_candidates();

} // namespace jobspec::match
