// JSON string literals (RFC 8259 section 7): decoding their bodies, writing them.
#pragma once

#include <string>
#include <string_view>

#include <jobspec/expected.hpp>

namespace jobspec::support {

enum class EscapeError : std::uint8_t { bad_escape };

/// Decodes `body` (the text between the quotes) with JSON's escapes: \" \\ \/ \b \f \n
/// \r \t and \uXXXX, surrogate pairs included. An unknown escape or a lone surrogate is
/// an error whose offset and length cover the escape within `body`.
Expected<std::string, CodecError<EscapeError>> unescape_json(std::string_view body);

/// Appends `s` to `out` as a JSON string literal: quoted, with \" \\ \n \r \t \b \f,
/// \u00XX for other control characters and DEL, \uXXXX for C1 controls and the
/// bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A-U+202E,
/// U+2066-U+2069), and \ufffd for each byte that is not UTF-8, so the text written is
/// always valid UTF-8 and valid JSON. Other characters pass through as they are.
void append_json_quoted(std::string& out, std::string_view s);

/// `s` as a JSON string literal.
std::string json_quoted(std::string_view s);

} // namespace jobspec::support
