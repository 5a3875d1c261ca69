#include "positions.hpp"

#include <algorithm>
#include <cstring>

namespace jobspec::cli::lsp {

namespace {

/// One character of UTF-8 at `p` (before `end`): its length in bytes and in code units
/// of `encoding`. A byte that does not start well-formed UTF-8 is one character of one
/// byte, as a client shows it (U+FFFD).
struct Char {
    std::size_t bytes;
    std::uint32_t units;
};

Char char_at(const unsigned char* p, const unsigned char* end, PositionEncoding encoding) {
    const unsigned char b = *p;
    if (b < 0x80)
        return {1, 1};
    const auto continuation = [&](std::size_t i) { return p + i < end && (p[i] & 0xC0) == 0x80; };
    std::size_t n = 0;
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF)
        n = 3;
    else if (b >= 0xF0 && b <= 0xF4)
        n = 4;
    bool ok = n > 0;
    for (std::size_t i = 1; ok && i < n; ++i)
        ok = continuation(i);
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if (ok && n == 3)
        ok = !(b == 0xE0 && p[1] < 0xA0) && !(b == 0xED && p[1] >= 0xA0);
    if (ok && n == 4)
        ok = !(b == 0xF0 && p[1] < 0x90) && !(b == 0xF4 && p[1] >= 0x90);
    if (!ok)
        return {1, 1};
    switch (encoding) {
    case PositionEncoding::utf8:
        return {n, static_cast<std::uint32_t>(n)};
    case PositionEncoding::utf16:
        return {n, n == 4 ? 2u : 1u};
    case PositionEncoding::utf32:
        break;
    }
    return {n, 1};
}

bool line_break(char c) {
    return c == '\n' || c == '\r';
}

/// The byte offset `character` units into the line that starts at `start`, stopping at
/// the line's end.
std::size_t advance(std::string_view text, std::size_t start, std::uint32_t character,
                    PositionEncoding encoding) {
    const auto* base = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = base + text.size();
    const auto* p = base + start;
    std::uint32_t units = 0;
    while (p < end && !line_break(static_cast<char>(*p))) {
        if (units >= character)
            break;
        const Char c = char_at(p, end, encoding);
        if (units + c.units > character)
            break; // inside the character: its start
        units += c.units;
        p += c.bytes;
    }
    return static_cast<std::size_t>(p - base);
}

/// Finds line starts left to right. memchr finds each '\n' and '\r'; a search for the
/// one that is not there is remembered, so a text without '\r' is scanned once.
class LineScanner {
public:
    explicit LineScanner(std::string_view text) : text_(text) {}

    /// Where the line after the one that contains `from` starts, or npos after the last.
    /// `from` never decreases from one call to the next.
    std::size_t next_line(std::size_t from) {
        const std::size_t nl = find(nl_, '\n', from);
        const std::size_t cr = find(cr_, '\r', from);
        std::size_t at = std::min(nl, cr);
        if (at == std::string_view::npos)
            return at;
        if (at == cr && cr + 1 == nl)
            ++at; // "\r\n"
        return at + 1;
    }

private:
    std::size_t find(std::size_t& cached, char c, std::size_t from) {
        if (cached != unknown && (cached == std::string_view::npos || cached >= from))
            return cached;
        const void* p = std::memchr(text_.data() + from, c, text_.size() - from);
        cached = p == nullptr
                     ? std::string_view::npos
                     : static_cast<std::size_t>(static_cast<const char*>(p) - text_.data());
        return cached;
    }

    static constexpr std::size_t unknown = std::string_view::npos - 1;
    std::string_view text_;
    std::size_t nl_ = unknown;
    std::size_t cr_ = unknown;
};

} // namespace

std::string_view encoding_name(PositionEncoding encoding) noexcept {
    switch (encoding) {
    case PositionEncoding::utf8:
        return "utf-8";
    case PositionEncoding::utf16:
        return "utf-16";
    case PositionEncoding::utf32:
        break;
    }
    return "utf-32";
}

std::optional<PositionEncoding> encoding_named(std::string_view name) noexcept {
    if (name == "utf-8")
        return PositionEncoding::utf8;
    if (name == "utf-16")
        return PositionEncoding::utf16;
    if (name == "utf-32")
        return PositionEncoding::utf32;
    return std::nullopt;
}

std::size_t offset_of(std::string_view text, Position position, PositionEncoding encoding) {
    LineScanner lines(text);
    std::size_t start = 0;
    for (std::uint32_t line = 0; line < position.line; ++line) {
        start = lines.next_line(start);
        if (start == std::string_view::npos)
            return text.size();
    }
    return advance(text, start, position.character, encoding);
}

LineIndex::LineIndex(std::string_view text) {
    LineScanner lines(text);
    starts_.push_back(0);
    for (std::size_t at = lines.next_line(0); at != std::string_view::npos;
         at = lines.next_line(at))
        starts_.push_back(at);
}

Position LineIndex::position(std::string_view text, std::size_t offset,
                             PositionEncoding encoding) const {
    offset = std::min(offset, text.size());
    const auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const auto line = static_cast<std::size_t>(after - starts_.begin()) - 1;
    const auto* base = reinterpret_cast<const unsigned char*>(text.data());
    const auto* p = base + starts_[line];
    const auto* stop = base + offset;
    const auto* end = base + text.size();
    std::uint32_t units = 0;
    while (p < stop && !line_break(static_cast<char>(*p))) {
        const Char c = char_at(p, end, encoding);
        if (p + c.bytes > stop)
            break;
        units += c.units;
        p += c.bytes;
    }
    return {static_cast<std::uint32_t>(line), units};
}

std::size_t LineIndex::offset(std::string_view text, Position position,
                              PositionEncoding encoding) const {
    if (position.line >= starts_.size())
        return text.size();
    return advance(text, starts_[position.line], position.character, encoding);
}

} // namespace jobspec::cli::lsp
