// The one JSON text writer: every JSON value jobspec writes goes through it.
#pragma once

#include <cstdint>
#include <string>

#include <boost/json/value.hpp>

namespace jobspec::support {

/// How JSON text is laid out.
enum class JsonTextStyle : std::uint8_t {
    /// No space at all; doubles in their shortest round-trip form ("2.5", "3.0"); strings
    /// terminal-safe (see JsonEscapes); NaN and infinities as null.
    compact,
    /// compact, indented by two spaces, with ": " after keys.
    pretty,
    /// As Python's json.dumps(value, ensure_ascii=False) writes it, which is what flux's
    /// --dry-run prints: ", " and ": " separators, only the escapes JSON requires, doubles
    /// in Python's repr ("300.0", "1e-05"), NaN and infinities as NaN, Infinity, -Infinity.
    python,
};

/// Appends the JSON text of `value` to `out`, without a newline.
void append_json_text(std::string& out, const boost::json::value& value,
                      JsonTextStyle style = JsonTextStyle::compact);

/// The JSON text of `value`, without a newline.
std::string json_text(const boost::json::value& value,
                      JsonTextStyle style = JsonTextStyle::compact);

} // namespace jobspec::support
