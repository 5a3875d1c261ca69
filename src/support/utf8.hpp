// UTF-8 helpers shared by the lexers and the diagnostic renderer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jobspec::support {

/// The length (1-4) of the well-formed UTF-8 sequence starting at `pos`, or 0 when the
/// bytes there are not well-formed UTF-8 (overlong forms and surrogates included).
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) noexcept;

/// The code point of the well-formed sequence of `length` bytes (1-4) at `pos`.
std::uint32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t length) noexcept;

/// Whether `cp` is a bidirectional formatting character, the "Trojan Source" ones that
/// reorder how text displays: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069.
bool is_bidi_control(std::uint32_t cp) noexcept;

/// Appends the UTF-8 encoding of the Unicode scalar value `cp` (<= 0x10FFFF, not a surrogate).
void append_utf8(std::string& out, std::uint32_t cp);

/// The length in bytes of the word character at `pos`, as Python's `\w` matches one in a
/// str (a letter or number, Unicode categories L* and N*, or '_'); 0 when the character
/// there is not one, is not UTF-8, or `pos` is at the end.
std::size_t word_char_length(std::string_view text, std::size_t pos) noexcept;

/// The number of code points in `text` (continuation bytes do not count).
std::size_t count_code_points(std::string_view text) noexcept;

} // namespace jobspec::support
