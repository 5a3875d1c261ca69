#include "support/json_string.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "support/utf8.hpp"
#include "support/chars.hpp"

namespace jobspec::support {

namespace {

using Error = CodecError<EscapeError>;

/// The four hex digits at `at` as a number, or nothing.
std::optional<std::uint32_t> hex4(std::string_view s, std::size_t at) {
    if (at + 4 > s.size())
        return std::nullopt;
    std::uint32_t v = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
        const char c = s[i];
        const int digit = hex_digit(c);
        if (digit < 0)
            return std::nullopt;
        v = (v << 4) | static_cast<std::uint32_t>(digit);
    }
    return v;
}

} // namespace

Expected<std::string, Error> unescape_json(std::string_view body) {
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\') {
            out += body[i];
            continue;
        }
        const std::size_t start = i;
        const char e = i + 1 < body.size() ? body[i + 1] : '\0';
        ++i;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            continue;
        case 'b':
            out += '\b';
            continue;
        case 'f':
            out += '\f';
            continue;
        case 'n':
            out += '\n';
            continue;
        case 'r':
            out += '\r';
            continue;
        case 't':
            out += '\t';
            continue;
        case 'u':
            break;
        default:
            return Unexpected<Error>{{EscapeError::bad_escape, start, 2,
                                      fmt::format("unknown escape '\\{}' (JSON allows \\\" \\\\ "
                                                  "\\/ \\b \\f \\n \\r \\t \\uXXXX)",
                                                  e == '\0' ? std::string() : std::string(1, e))}};
        }
        auto unit = hex4(body, i + 1);
        if (!unit)
            return Unexpected<Error>{{EscapeError::bad_escape, start,
                                      std::min<std::size_t>(6, body.size() - start),
                                      "'\\u' needs four hex digits"}};
        i += 4;
        std::uint32_t cp = *unit;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return Unexpected<Error>{{EscapeError::bad_escape, start, 6,
                                      "a low surrogate must follow a high surrogate"}};
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            auto low = body.substr(i + 1, 2) == "\\u" ? hex4(body, i + 3) : std::nullopt;
            if (!low || *low < 0xDC00 || *low > 0xDFFF)
                return Unexpected<Error>{{EscapeError::bad_escape, start, 6,
                                          "a high surrogate must be followed by a low surrogate"}};
            cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
            i += 6;
        }
        append_utf8(out, cp);
    }
    return out;
}

namespace {

void append_u_escape(std::string& out, std::uint32_t unit) {
    static constexpr char hex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += hex[(unit >> static_cast<unsigned>(shift)) & 0xFU];
}

/// Code points written as \uXXXX although JSON allows them raw: C1 controls and the
/// bidirectional formatting characters, so JSON shown on a terminal cannot act on it.
bool escaped_anyway(std::uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp);
}

/// A byte every JSON string literal writes as itself: printable ASCII but '"' and '\\'.
bool is_plain_json_byte(unsigned char c) {
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

} // namespace

void append_json_quoted(std::string& out, std::string_view s, JsonEscapes escapes) {
    const bool safe = escapes == JsonEscapes::terminal_safe;
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        // Printable ASCII other than the quote and backslash is copied a run at a time.
        std::size_t plain = i;
        while (plain < s.size() && is_plain_json_byte(static_cast<unsigned char>(s[plain])))
            ++plain;
        out.append(s.data() + i, plain - i);
        if ((i = plain) == s.size())
            break;
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            const std::size_t n = utf8_sequence_length(s, i);
            if (n == 0) {
                append_u_escape(out, 0xFFFD);
                ++i;
                continue;
            }
            if (const std::uint32_t cp = decode_utf8(s, i, n); safe && escaped_anyway(cp))
                append_u_escape(out, cp);
            else
                out.append(s.data() + i, n);
            i += n;
            continue;
        }
        ++i;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20 || (safe && c == 0x7F))
                append_u_escape(out, c);
            else
                out += static_cast<char>(c);
        }
    }
    out += '"';
}

std::string json_quoted(std::string_view s) {
    std::string out;
    append_json_quoted(out, s);
    return out;
}

} // namespace jobspec::support
