// UTF-8 text: checking it, repairing it, and showing it safely on a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <jobspec/api.hpp>

namespace jobspec {

/// The offset of the first byte of `text` that is not well-formed UTF-8 (overlong forms,
/// surrogates and code points above U+10FFFF included), or std::string_view::npos.
JOBSPEC_API std::size_t find_invalid_utf8(std::string_view text) noexcept;

/// `text` with each byte that is not part of well-formed UTF-8 replaced by U+FFFD.
JOBSPEC_API std::string to_valid_utf8(std::string_view text);

/// `text` with everything a terminal would act on or hide shown as visible text:
/// C0 controls (except tab), DEL and bytes that are not UTF-8 as "\x1b"-style escapes;
/// C1 controls and the bidirectional formatting characters ("Trojan Source": U+061C,
/// U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) as "<U+202E>". Everything else, tabs
/// included, is kept. Example: the 5 bytes "a" ESC "[0m" -> the 8 characters `a\x1b[0m`.
JOBSPEC_API std::string visible_text(std::string_view text);

/// How many terminal columns `text` takes once made visible: double-width characters
/// (CJK, most emoji) count 2, combining marks 0, escapes their length, a tab 1.
JOBSPEC_API std::size_t display_width(std::string_view text);

} // namespace jobspec
