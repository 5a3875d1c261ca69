// "Did you mean ...?": the closest known word to a misspelt one.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>

namespace jobspec {

/// The candidate closest to `word` by edit distance, when it is close enough to be a
/// likely typo (at most 2 edits, and fewer than half the longer word's length); else
/// nothing. Example: closest("aftrok", {"afterok", "afterany"}) -> "afterok".
JOBSPEC_API std::optional<std::string_view> closest(std::string_view word,
                                                    const std::vector<std::string_view>& candidates);

} // namespace jobspec
