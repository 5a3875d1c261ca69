// Which diagnostic code a count error has, in the language the count was written in.
#pragma once

#include <jobspec/count.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec::lower {

/// Where a count was written: shape strings report shape.* codes, documents jobspec.*.
enum class CountLanguage : std::uint8_t { shape, jobspec };

/// The code for a Count error (limit.integer for overflow in both languages).
Code count_error_code(Count::ErrorKind kind, CountLanguage language) noexcept;

} // namespace jobspec::lower
