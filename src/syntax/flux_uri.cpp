#include "syntax/flux_uri.hpp"

#include <cctype>
#include <string>

#include <fmt/format.h>

#include "support/chars.hpp"

namespace jobspec::syntax {

namespace {

/// application/x-www-form-urlencoded decoding: '+' is a space, %XX a byte.
std::string form_decoded(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && support::hex_digit(s[i + 1]) >= 0 &&
                   support::hex_digit(s[i + 2]) >= 0) {
            out +=
                static_cast<char>(support::hex_digit(s[i + 1]) * 16 + support::hex_digit(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

bool uri_scheme_char(char c) {
    return static_cast<unsigned char>(c) < 0x80 &&
           (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.');
}

} // namespace

std::optional<DependencyAst> read_flux_uri(std::string_view given, std::string_view what,
                                           Diagnostics& d) {
    std::string text;
    for (char c : given)
        if (c != '\t' && c != '\r' && c != '\n')
            text += c;
    const bool located = text.size() == given.size();
    const auto at = [&](std::size_t begin, std::size_t end) {
        return located
                   ? SourceRange{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)}
                   : SourceRange{};
    };
    if (text.find(':') == std::string::npos)
        text += ':';
    const std::size_t colon = text.find(':');
    bool ok = colon > 0 && std::isalpha(static_cast<unsigned char>(text[0])) &&
              static_cast<unsigned char>(text[0]) < 0x80;
    for (std::size_t i = 0; i < colon; ++i)
        ok = ok && uri_scheme_char(text[i]);
    if (!ok) {
        d.add(Code::submit_value, fmt::format("Invalid {} URI \"{}\"", what, text));
        return std::nullopt;
    }
    DependencyAst ast;
    ast.scheme = text.substr(0, colon);
    ast.scheme_range = at(0, colon);
    std::size_t end = text.find('#', colon + 1);
    if (end == std::string::npos)
        end = text.size();
    const std::size_t q = text.find('?', colon + 1);
    const std::size_t value_end = q < end ? q : end;
    ast.value = text.substr(colon + 1, value_end - colon - 1);
    ast.value_range = at(std::min(colon + 1, given.size()), std::min(value_end, given.size()));
    for (std::size_t start = value_end + 1; q < end && start <= end;) {
        std::size_t amp = text.find('&', start);
        if (amp == std::string::npos || amp > end)
            amp = end;
        const std::string_view item(text.data() + start, amp - start);
        const auto eq = item.find('=');
        if (eq != std::string_view::npos && eq + 1 < item.size())
            ast.options.push_back({form_decoded(item.substr(0, eq)),
                                   form_decoded(item.substr(eq + 1)), at(start, start + eq),
                                   at(start + eq + 1, amp)});
        start = amp + 1;
    }
    return ast;
}

} // namespace jobspec::syntax
