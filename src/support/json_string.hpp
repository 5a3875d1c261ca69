// JSON string literals (RFC 8259 section 7): decoding their bodies, writing them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "support/expected.hpp"

namespace jobspec::support {

enum class EscapeError : std::uint8_t { bad_escape };

/// Decodes `body` (the text between the quotes) with JSON's escapes: \" \\ \/ \b \f \n
/// \r \t and \uXXXX, surrogate pairs included. An unknown escape or a lone surrogate is
/// an error whose offset and length cover the escape within `body`.
Expected<std::string, CodecError<EscapeError>> unescape_json(std::string_view body);

/// Which characters a JSON string literal escapes beyond what JSON requires.
enum class JsonEscapes : std::uint8_t {
    /// DEL, C1 controls and the bidirectional formatting characters too: safe on a terminal.
    terminal_safe,
    /// Only what JSON requires, as Python's json.dumps(ensure_ascii=False) writes (flux's
    /// --dry-run output).
    minimal,
};

/// Appends `s` to `out` as a JSON string literal: quoted, with \" \\ \n \r \t \b \f,
/// \u00XX for other control characters; with JsonEscapes::terminal_safe also DEL, C1
/// controls and the bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069) as \uXXXX. Each byte that is not UTF-8 becomes \ufffd,
/// so the text written is always valid UTF-8 and valid JSON. Other characters pass through.
void append_json_quoted(std::string& out, std::string_view s,
                        JsonEscapes escapes = JsonEscapes::terminal_safe);

/// `s` as a JSON string literal.
std::string json_quoted(std::string_view s);

} // namespace jobspec::support
