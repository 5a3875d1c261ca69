// Fluxion's choice among or-slots: the one rule by which both matchers place them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

namespace jobspec::match {

/// Places `n` instances of or-slots in `left`, as Fluxion's select_or_config chooses: each
/// instance in turn the first of the `alternatives` that fits what is left and after which
/// the other instances still fit. The matchers differ only in what they measure (R's
/// cores and GPUs, or a graph vertex's amounts of each type), so they pass it in:
///   take(i, left)      what is left after one instance of alternative i, or nothing
///                      when it does not fit (a std::optional<Left>);
///   fits(m, left)      whether m more instances fit in `left`, however they mix;
///   finish(m, left)    what is left when the m instances still to place are all the
///                      first alternative, which the rule then chooses each time, or
///                      nothing (a shortcut for large counts; it may always say nothing);
///   chosen(i, before)  told each choice made one by one, with what was left before it.
/// Returns what is left, or nothing when an instance has no alternative that fits (only
/// when `fits(n, left)` was false to begin with).
template <class Left, class Take, class Fits, class Finish, class Chosen>
std::optional<Left> choose_or_slots(std::size_t alternatives, std::uint64_t n, Left left,
                                    Take take, Fits fits, Finish finish, Chosen chosen) {
    for (std::uint64_t placed = 0; placed < n; ++placed) {
        if (auto rest = finish(n - placed, left))
            return rest;
        bool found = false;
        for (std::size_t i = 0; i < alternatives && !found; ++i) {
            auto after = take(i, left);
            if (!after || !fits(n - placed - 1, *after))
                continue;
            chosen(i, left);
            left = std::move(*after);
            found = true;
        }
        if (!found)
            return std::nullopt;
    }
    return left;
}

} // namespace jobspec::match
