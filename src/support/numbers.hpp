// Reading plain non-negative decimal numbers (durations, timestamps).
#pragma once

#include <optional>
#include <string_view>

namespace jobspec::support {

/// A finite non-negative number written as digits with an optional fraction and exponent
/// ("90", "1.5", ".5", "1.7e9"); nothing for anything else ("", "-1", "inf", "1x").
std::optional<double> parse_non_negative(std::string_view text) noexcept;

} // namespace jobspec::support
