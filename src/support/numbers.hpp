// Numbers: reading plain non-negative decimals (durations, timestamps) and JSON numbers
// exactly, and counting without overflow.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace jobspec::support {

/// A finite non-negative number written as digits with an optional fraction and exponent
/// ("90", "1.5", ".5", "1.7e9"); nothing for anything else ("", "-1", "inf", "1x").
std::optional<double> parse_non_negative(std::string_view text) noexcept;

/// The double nearest to `number` (JSON number text), or `fallback` when it is out of
/// range or not a number from_chars reads. Boost.JSON 1.81 may be an ulp or more off.
double exact_double(std::string_view number, double fallback) noexcept;

/// a * b, or UINT64_MAX when that overflows: a count nothing can meet.
std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) noexcept;
/// a + b, or UINT64_MAX when that overflows.
std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) noexcept;

} // namespace jobspec::support
