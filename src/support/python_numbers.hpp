// Numbers as Python reads and writes them, for what flux's Python commands accept and print.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace jobspec::support {

/// Python int(text) for base 10: surrounding whitespace, a sign, '_' between digits.
/// Nothing when malformed or outside int64 (non-ASCII digits are not accepted).
std::optional<std::int64_t> python_int(std::string_view text) noexcept;

/// Python float(text): surrounding whitespace, a sign, '_' between digits, a fraction, an
/// exponent, or inf/infinity/nan in any case. Nothing when malformed.
std::optional<double> python_float(std::string_view text) noexcept;

/// What flux-core's Python makes of a URI option's text: python_int's value, else
/// python_float's, else the text itself.
boost::json::value python_number_or_text(std::string_view text);

/// Python repr(value): the shortest text that reads back, "300.0", "1e-05", "1e+16",
/// "inf", "nan".
std::string python_float_repr(double value);

/// Flux Standard Duration in seconds (see jobspec::parse_flux_duration), NaN and negative
/// results included so that callers can say which it was; nothing when malformed.
std::optional<double> flux_duration(std::string_view text) noexcept;

} // namespace jobspec::support
