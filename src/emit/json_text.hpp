// Writing JSON text into a string the caller is building.
#pragma once

#include <string>

#include <boost/json/value.hpp>

namespace jobspec::emit {

/// Appends the compact JSON text of `value` (as to_json_text writes it, without the
/// trailing newline).
void append_json_text(std::string& out, const boost::json::value& value);

} // namespace jobspec::emit
