// Naming and reading JSON value kinds, for messages and numeric checks.
#pragma once

#include <string_view>

#include <boost/json/value.hpp>

namespace jobspec::support {

/// What a kind is, for messages: "a string", "an integer", "a number", "a list", ...
std::string_view describe(boost::json::kind kind) noexcept;

/// Whether the value is an integer or a floating-point number.
bool is_number(const boost::json::value& value) noexcept;

/// A number's value as a double (0 for anything else).
double as_double(const boost::json::value& value) noexcept;

} // namespace jobspec::support
