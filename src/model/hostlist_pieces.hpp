// Internal: a hostlist's hosts as pieces split the way names split, with their positions.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include <jobspec/hostlist.hpp>

namespace jobspec::model {

/// Consecutive hosts prefix<n>suffix for n in first..last whose number is the last run of
/// digits of their names and whose names have exactly `width` digits of zero padding (0:
/// none), starting at `position` in the list; or one name without a number (`numbered`
/// false, the name in `prefix`). Two equal names always give pieces with the same key
/// (prefix, suffix, width, numbered), however their runs were written.
struct HostPiece {
    std::string_view prefix;
    std::string_view suffix;
    std::uint8_t width;
    bool numbered;
    std::uint64_t first;
    std::uint64_t last;
    std::uint64_t position;
};

/// Runs whose number is not the last run of digits of their names ("foo[0-4]-eth2") are
/// re-split name by name, up to this many names; a longer one is one piece keyed as written,
/// so it matches lists written the same way but not those names written one by one. The
/// cap keeps a short hostile string ("a[0-9999999999]-b2") from costing billions of pieces.
inline constexpr std::uint64_t max_resplit_names = 65536;

/// Calls `f` for each piece of `hosts`, in list order.
void for_each_piece(const Hostlist& hosts, const std::function<void(const HostPiece&)>& f);

/// The positions (from 0) at which two lists name the same host, as ascending ranges,
/// found piece by piece without expanding names. Positions past the shorter list's end
/// are not compared.
std::vector<IdSet::Range> same_host_positions(const Hostlist& a, const Hostlist& b);

} // namespace jobspec::model
