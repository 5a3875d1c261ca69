// ASCII character classes, the same everywhere (<cctype>'s depend on the locale and take
// int): what the lexers and codecs test characters with.
#pragma once

#include <cstddef>
#include <string_view>

namespace jobspec::support {

constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

constexpr bool is_letter(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Space, tab, newline and carriage return: what separates tokens in shapes and queries.
constexpr bool is_whitespace(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// is_whitespace, vertical tab and form feed: C's isspace in the "C" locale.
constexpr bool is_c_space(char c) noexcept {
    return is_whitespace(c) || c == '\v' || c == '\f';
}

/// The value of a hexadecimal digit (either case), or -1 for another character.
constexpr int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// `c` with A-Z lowered; other characters as they are.
constexpr char ascii_lower(char c) noexcept {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Whether `text` is `lower` (which is lower case) in any mix of ASCII cases.
constexpr bool equals_ignoring_case(std::string_view text, std::string_view lower) noexcept {
    if (text.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (ascii_lower(text[i]) != lower[i])
            return false;
    return true;
}

} // namespace jobspec::support
