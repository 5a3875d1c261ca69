#include "support/utf8.hpp"

#include <utf8proc.h>

namespace jobspec::support {

std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) noexcept {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    const auto continuation = [&](std::size_t i) {
        return pos + i < text.size() && (byte(i) & 0xC0U) == 0x80U;
    };
    const unsigned char c = byte(0);
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return continuation(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!continuation(1) || !continuation(2))
            return 0;
        if ((c == 0xE0 && byte(1) < 0xA0) || (c == 0xED && byte(1) > 0x9F))
            return 0; // overlong, or a UTF-16 surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!continuation(1) || !continuation(2) || !continuation(3))
            return 0;
        if ((c == 0xF0 && byte(1) < 0x90) || (c == 0xF4 && byte(1) > 0x8F))
            return 0; // overlong, or above U+10FFFF
        return 4;
    }
    return 0;
}

std::uint32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t length) noexcept {
    const auto b = [&](std::size_t i) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(text[pos + i]));
    };
    switch (length) {
    case 1:
        return b(0);
    case 2:
        return ((b(0) & 0x1FU) << 6) | (b(1) & 0x3FU);
    case 3:
        return ((b(0) & 0x0FU) << 12) | ((b(1) & 0x3FU) << 6) | (b(2) & 0x3FU);
    default:
        return ((b(0) & 0x07U) << 18) | ((b(1) & 0x3FU) << 12) | ((b(2) & 0x3FU) << 6) |
               (b(3) & 0x3FU);
    }
}

bool is_bidi_control(std::uint32_t cp) noexcept {
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

void append_utf8(std::string& out, std::uint32_t cp) {
    const auto put = [&](std::uint32_t v) { out += static_cast<char>(v); };
    if (cp < 0x80) {
        put(cp);
    } else if (cp < 0x800) {
        put(0xC0 | (cp >> 6));
        put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        put(0xE0 | (cp >> 12));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    } else {
        put(0xF0 | (cp >> 18));
        put(0x80 | ((cp >> 12) & 0x3F));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    }
}

std::size_t count_code_points(std::string_view text) noexcept {
    std::size_t n = 0;
    for (const char c : text)
        n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    return n;
}

std::size_t word_char_length(std::string_view text, std::size_t pos) noexcept {
    if (pos >= text.size())
        return 0;
    if (const auto c = static_cast<unsigned char>(text[pos]); c < 0x80)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '_'
                   ? 1
                   : 0;
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0)
        return 0;
    const std::uint32_t cp = decode_utf8(text, pos, length);
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
        return length;
    default:
        return 0;
    }
}

} // namespace jobspec::support
