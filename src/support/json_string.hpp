// Decoding the body of a JSON string literal (RFC 8259 section 7).
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

} // namespace jobspec::support
