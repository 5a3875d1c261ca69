// Positions in the Language Server Protocol: a line and a character, both from 0, the
// character counted in the code units of an encoding the client and the server agreed
// on (UTF-16 unless the client offers another). The library's ranges are byte offsets;
// this converts between the two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace jobspec::cli::lsp {

/// What an LSP position's character counts: bytes (utf-8), UTF-16 code units (the
/// protocol's default) or code points (utf-32).
enum class PositionEncoding { utf8, utf16, utf32 };

/// The name LSP gives the encoding ("utf-8", "utf-16", "utf-32").
std::string_view encoding_name(PositionEncoding encoding) noexcept;
/// The encoding with that LSP name, or nothing.
std::optional<PositionEncoding> encoding_named(std::string_view name) noexcept;

/// A position in a text: the line from 0 and the character from 0, in code units.
struct Position {
    std::uint32_t line = 0;
    std::uint32_t character = 0;
    friend bool operator==(const Position&, const Position&) = default;
};

/// The byte offset of `position` in `text`. A line ends at "\n", "\r\n" or "\r"; a
/// character past the end of its line means the end of the line, a line past the last
/// the end of the text, a position inside a character the start of that character.
/// Bytes that are not UTF-8 count one unit each (as the U+FFFD a client shows). O(n):
/// for one position, as in an edit; LineIndex answers many.
/// Example: in "é\nab", {1, 1} -> 4 and {0, 1} -> 2 (UTF-16), {0, 1} -> 1 (UTF-8).
std::size_t offset_of(std::string_view text, Position position, PositionEncoding encoding);

/// Where each line of a text starts, to convert many offsets and positions of it.
/// Holds offsets only; each call takes the text the index was made from.
class LineIndex {
public:
    explicit LineIndex(std::string_view text);

    /// The position of byte `offset` of `text` (clamped to its size; an offset inside a
    /// character or a "\r\n" counts as its start).
    Position position(std::string_view text, std::size_t offset, PositionEncoding encoding) const;
    /// The byte offset of `position` in `text`, as offset_of.
    std::size_t offset(std::string_view text, Position position, PositionEncoding encoding) const;

private:
    /// The byte where each line starts; the first is 0.
    std::vector<std::size_t> starts_;
};

} // namespace jobspec::cli::lsp
