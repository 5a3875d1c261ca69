// Naming JSON value kinds, for messages.
#pragma once

#include <string_view>

#include <boost/json/value.hpp>

namespace jobspec::support {

/// What a kind is, for messages: "a string", "an integer", "a number", "a list", ...
std::string_view describe(boost::json::kind kind) noexcept;

} // namespace jobspec::support
