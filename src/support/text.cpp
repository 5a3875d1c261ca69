#include <jobspec/text.hpp>

#include <cstdint>

#include <fmt/format.h>
#include <utf8proc.h>

#include "support/utf8.hpp"

namespace jobspec {

namespace {

/// Walks `text` one character (or one bad byte) at a time, calling
/// `shown(bytes, escape, width)`: `escape` is the visible replacement, or empty when the
/// bytes are shown as they are, taking `width` columns.
template <class F>
void walk(std::string_view text, F&& shown) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = support::utf8_sequence_length(text, i);
        if (n == 0) {
            const std::string e = fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
            shown(text.substr(i, 1), e, e.size());
            ++i;
            continue;
        }
        const std::uint32_t cp = support::decode_utf8(text, i, n);
        if ((cp < 0x20 && cp != '\t') || cp == 0x7F) {
            const std::string e = fmt::format("\\x{:02x}", cp);
            shown(text.substr(i, n), e, e.size());
        } else if ((cp >= 0x80 && cp <= 0x9F) || support::is_bidi_control(cp)) {
            const std::string e = fmt::format("<U+{:04X}>", cp);
            shown(text.substr(i, n), e, e.size());
        } else {
            const int w = cp < 0x80 ? 1 : utf8proc_charwidth(static_cast<utf8proc_int32_t>(cp));
            shown(text.substr(i, n), std::string(), static_cast<std::size_t>(w < 0 ? 0 : w));
        }
        i += n;
    }
}

bool plain_ascii(std::string_view text) {
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != '\t') || u >= 0x7F)
            return false;
    }
    return true;
}

} // namespace

std::size_t find_invalid_utf8(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = support::utf8_sequence_length(text, i);
        if (n == 0)
            return i;
        i += n;
    }
    return std::string_view::npos;
}

std::string to_valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = support::utf8_sequence_length(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

std::string visible_text(std::string_view text) {
    if (plain_ascii(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size());
    walk(text, [&](std::string_view bytes, const std::string& escape, std::size_t) {
        if (escape.empty())
            out += bytes;
        else
            out += escape;
    });
    return out;
}

std::size_t display_width(std::string_view text) {
    if (plain_ascii(text))
        return text.size();
    std::size_t width = 0;
    walk(text, [&](std::string_view, const std::string&, std::size_t w) { width += w; });
    return width;
}

} // namespace jobspec
