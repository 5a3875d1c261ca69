// RFC 19's encoding tables, generated at build time from data/ (see data/meson.build).
#pragma once

#include <array>
#include <string_view>

namespace jobspec::model {

/// The 576 emoji of the emoji encoding, in table order (index 0 is U+1F603).
extern const std::array<std::string_view, 576> fluid_emoji;

/// The mnemonicode words, index 0 first: 0..1625 are base-1626 digits, 1626..1632 the
/// words used only for 24-bit remainders (never in a 64-bit FLUID).
extern const std::array<std::string_view, 1633> mnemonicode_words;

} // namespace jobspec::model
