#include <jobspec/fluid.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "model/decoders.hpp"
#include "model/fluid_tables.hpp"
#include "support/chars.hpp"

namespace jobspec {

namespace {

using FluidKind = model::FluidError::Kind;

constexpr std::string_view base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr std::string_view f58_prefix = "\xc6\x92"; // U+0192 ƒ
constexpr std::uint64_t words_base = 1626;

constexpr std::array<std::string_view, 8> names = {"dec", "hex",   "dothex", "kvs",
                                                   "f58", "words", "emoji",  "f58plain"};

/// A character for messages: printable ASCII as is, anything else as a byte value.
std::string shown(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7F ? fmt::format("'{}'", c) : fmt::format("byte 0x{:02x}", u);
}

/// Lookup tables for decoding, built once: emoji by their last two bytes, words by their
/// first two letters.
struct Tables {
    /// Index + 1 of each emoji f0 9f xx yy at ((xx & 0x3f) << 6) | (yy & 0x3f); 0: none.
    std::array<std::uint16_t, 4096> emoji{};
    /// Word indices sorted by word, and for each two-letter prefix its first sorted slot.
    std::vector<std::uint16_t> sorted;
    std::array<std::uint16_t, 26 * 26 + 1> bucket{};

    static std::size_t prefix(std::string_view w) {
        return static_cast<std::size_t>(w[0] - 'a') * 26 + static_cast<std::size_t>(w[1] - 'a');
    }

    Tables() {
        for (std::size_t i = 0; i < model::fluid_emoji.size(); ++i) {
            const auto e = model::fluid_emoji[i];
            emoji[(static_cast<std::size_t>(e[2] & 0x3f) << 6) |
                  static_cast<std::size_t>(e[3] & 0x3f)] = static_cast<std::uint16_t>(i + 1);
        }
        sorted.resize(model::mnemonicode_words.size());
        for (std::size_t i = 0; i < sorted.size(); ++i)
            sorted[i] = static_cast<std::uint16_t>(i);
        std::sort(sorted.begin(), sorted.end(), [](auto a, auto b) {
            return model::mnemonicode_words[a] < model::mnemonicode_words[b];
        });
        std::size_t slot = 0;
        for (std::size_t p = 0; p <= 26 * 26; ++p) {
            bucket[p] = static_cast<std::uint16_t>(slot);
            while (slot < sorted.size() && p < 26 * 26 &&
                   prefix(model::mnemonicode_words[sorted[slot]]) == p)
                ++slot;
        }
    }

    /// The index of a lowercase word, or nothing.
    std::optional<std::size_t> word(std::string_view w) const {
        if (w.size() < 2)
            return std::nullopt;
        const std::size_t p = prefix(w);
        for (std::size_t s = bucket[p]; s < bucket[p + 1]; ++s)
            if (model::mnemonicode_words[sorted[s]] == w)
                return sorted[s];
        return std::nullopt;
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

class Decoder {
public:
    Decoder(std::string_view text, std::size_t offset, FluidEncoding encoding)
        : text_(text), offset_(offset), encoding_(encoding) {}

    Expected<DecodedFluid, model::FluidError> run() {
        switch (encoding_) {
        case FluidEncoding::dec:
            return digits(text_, 0, 10);
        case FluidEncoding::hex:
            return digits(text_.substr(2), 2, 16);
        case FluidEncoding::dothex:
            return dothex(0);
        case FluidEncoding::kvs:
            return dothex(4);
        case FluidEncoding::f58:
        case FluidEncoding::f58plain: // never detected: 'f' and 'ƒ' both read as f58
            return f58();
        case FluidEncoding::words:
            return words();
        case FluidEncoding::emoji:
            return emoji();
        }
        return fail(FluidKind::character, 0, 0, "unknown encoding");
    }

private:
    Unexpected<model::FluidError> fail(FluidKind kind, std::size_t at, std::size_t length,
                                       std::string what) {
        return {{kind, encoding_, offset_ + at, length,
                 fmt::format("not a FLUID in {} encoding: {}", encoding_name(encoding_), what)}};
    }

    Unexpected<model::FluidError> overflow(std::size_t at, std::size_t length) {
        return fail(FluidKind::overflow, at, length, "the value does not fit in 64 bits");
    }

    DecodedFluid done(std::uint64_t id) const { return {id, encoding_}; }

    /// Decimal or hex digits (`skip` bytes of prefix before `s` in the text).
    Expected<DecodedFluid, model::FluidError> digits(std::string_view s, std::size_t skip, unsigned base) {
        if (s.empty())
            return fail(FluidKind::character, skip, 0, "no digits");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const int d = base == 16 ? support::hex_digit(s[i])
                                     : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
            if (d < 0)
                return fail(FluidKind::character, skip + i, 1,
                            fmt::format("{} is not a {} digit", shown(s[i]),
                                        base == 16 ? "hex" : "decimal"));
            const auto digit = static_cast<std::uint64_t>(d);
            if (v > (UINT64_MAX - digit) / base)
                return overflow(skip, s.size());
            v = v * base + digit;
        }
        return done(v);
    }

    /// Four groups of four hex digits joined by '.', after `skip` bytes ("job.").
    Expected<DecodedFluid, model::FluidError> dothex(std::size_t skip) {
        const std::string_view s = text_.substr(skip);
        if (s.size() != 19 || s[4] != '.' || s[9] != '.' || s[14] != '.')
            return fail(FluidKind::format, skip, s.size(),
                        "expected four groups of four hex digits, as 0017.e9fb.8df1.6c2e");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (i % 5 == 4)
                continue;
            const int d = support::hex_digit(s[i]);
            if (d < 0)
                return fail(FluidKind::character, skip + i, 1,
                            fmt::format("{} is not a hex digit", shown(s[i])));
            v = (v << 4) | static_cast<std::uint64_t>(d);
        }
        return done(v);
    }

    Expected<DecodedFluid, model::FluidError> f58() {
        const std::size_t skip = text_.substr(0, 2) == f58_prefix ? 2 : 1;
        const std::string_view s = text_.substr(skip);
        if (s.empty())
            return fail(FluidKind::character, skip, 0, "no base58 digits after the prefix");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const auto d = base58.find(s[i]);
            if (d == std::string_view::npos)
                return fail(FluidKind::character, skip + i, 1,
                            fmt::format("{} is not a base58 digit (no 0, O, I or l)", shown(s[i])));
            if (v > (UINT64_MAX - d) / 58)
                return overflow(skip, s.size());
            v = v * 58 + d;
        }
        return done(v);
    }

    Expected<DecodedFluid, model::FluidError> words() {
        std::array<std::uint64_t, 6> index{};
        std::size_t count = 0;
        std::size_t i = 0;
        while (i < text_.size()) {
            if (!support::is_letter(text_[i])) {
                ++i;
                continue;
            }
            const std::size_t start = i;
            // Lowercased into a buffer; no word is longer than it, so longer runs miss.
            std::array<char, 16> buffer{};
            std::size_t length = 0;
            while (i < text_.size() && support::is_letter(text_[i])) {
                if (length < buffer.size())
                    buffer[length] = static_cast<char>(text_[i] | 0x20);
                ++length;
                ++i;
            }
            const std::string_view word(buffer.data(), std::min(length, buffer.size()));
            const auto found = length <= buffer.size() ? tables().word(word) : std::nullopt;
            if (!found)
                return fail(
                    FluidKind::unknown_word, start, i - start,
                    fmt::format("'{}' is not a mnemonicode word", text_.substr(start, i - start)));
            if (*found >= words_base)
                return fail(FluidKind::unknown_word, start, i - start,
                            fmt::format("'{}' only ends 24-bit groups, never a FLUID", word));
            if (count == index.size())
                return fail(FluidKind::word_count, start, text_.size() - start,
                            "more than six words");
            index[count++] = *found;
        }
        if (count != index.size())
            return fail(FluidKind::word_count, 0, text_.size(),
                        fmt::format("{} words; a FLUID has six", count));
        std::uint64_t v = 0;
        for (std::size_t group = 0; group < 2; ++group) {
            const std::uint64_t x = index[3 * group] + words_base * index[3 * group + 1] +
                                    words_base * words_base * index[3 * group + 2];
            if (x > UINT32_MAX)
                return overflow(0, text_.size());
            v |= x << (32 * group);
        }
        return done(v);
    }

    Expected<DecodedFluid, model::FluidError> emoji() {
        if (text_.size() > 28)
            return fail(FluidKind::format, 0, text_.size(), "more than seven emoji");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < text_.size(); i += 4) {
            const bool framed =
                i + 4 <= text_.size() && text_[i] == '\xf0' && text_[i + 1] == '\x9f';
            const std::uint16_t slot =
                framed ? tables().emoji[(static_cast<std::size_t>(text_[i + 2] & 0x3f) << 6) |
                                        static_cast<std::size_t>(text_[i + 3] & 0x3f)]
                       : 0;
            if (slot == 0 || (text_[i + 2] & 0xc0) != 0x80 || (text_[i + 3] & 0xc0) != 0x80)
                return fail(FluidKind::character, i, std::min<std::size_t>(4, text_.size() - i),
                            "not one of RFC 19's 576 emoji");
            const std::uint64_t d = slot - 1U;
            if (v > (UINT64_MAX - d) / 576)
                return overflow(0, text_.size());
            v = v * 576 + d;
        }
        return done(v);
    }

    std::string_view text_;
    std::size_t offset_;
    FluidEncoding encoding_;
};

std::string base_digits(std::uint64_t id, std::uint64_t base, const auto& digit) {
    std::string reversed;
    do {
        reversed += digit(id % base);
        id /= base;
    } while (id > 0);
    return {reversed.rbegin(), reversed.rend()};
}

std::string dothex(std::uint64_t id) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(19, '.');
    for (std::size_t digit = 0, at = 18; digit < 16; ++digit, --at) {
        if (at % 5 == 4)
            --at;
        out[at] = hex[(id >> (4 * digit)) & 0xf];
    }
    return out;
}

} // namespace

std::string_view encoding_name(FluidEncoding encoding) noexcept {
    return names[static_cast<std::size_t>(encoding)];
}

std::optional<FluidEncoding> encoding_from_name(std::string_view name) noexcept {
    const auto lower = [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::equal(names[i].begin(), names[i].end(), name.begin(), name.end(),
                       [&](char a, char b) { return a == lower(b); }))
            return static_cast<FluidEncoding>(i);
    return std::nullopt;
}

FluidEncoding detect_encoding(std::string_view s) noexcept {
    while (!s.empty() && support::is_c_space(s.front()))
        s.remove_prefix(1);
    if (s.find('.') != std::string_view::npos)
        return s.substr(0, 4) == "job." ? FluidEncoding::kvs : FluidEncoding::dothex;
    if (s.find('-') != std::string_view::npos)
        return FluidEncoding::words;
    if (s.substr(0, 2) == f58_prefix || s.substr(0, 1) == "f")
        return FluidEncoding::f58;
    if (s.substr(0, 2) == "\xf0\x9f")
        return FluidEncoding::emoji;
    if (s.substr(0, 2) == "0x")
        return FluidEncoding::hex;
    return FluidEncoding::dec;
}

Expected<DecodedFluid, model::FluidError> model::decode_fluid(std::string_view text) {
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && support::is_c_space(text[begin]))
        ++begin;
    while (end > begin && support::is_c_space(text[end - 1]))
        --end;
    const FluidEncoding encoding = detect_encoding(text);
    if (begin == end)
        return Unexpected<model::FluidError>{
            {FluidKind::empty, encoding, begin, 0, "a FLUID cannot be empty"}};
    return Decoder(text.substr(begin, end - begin), begin, encoding).run();
}

std::string encode_fluid(std::uint64_t id, FluidEncoding encoding) {
    switch (encoding) {
    case FluidEncoding::dec:
        return std::to_string(id);
    case FluidEncoding::hex:
        return fmt::format("0x{:x}", id);
    case FluidEncoding::dothex:
        return dothex(id);
    case FluidEncoding::kvs:
        return "job." + dothex(id);
    case FluidEncoding::f58:
    case FluidEncoding::f58plain:
        return std::string(encoding == FluidEncoding::f58 ? f58_prefix : "f") +
               base_digits(id, 58, [](std::uint64_t d) { return base58[d]; });
    case FluidEncoding::words: {
        std::string out;
        for (std::size_t group = 0; group < 2; ++group) {
            std::uint64_t x = (id >> (32 * group)) & UINT32_MAX;
            for (std::size_t w = 0; w < 3; ++w) {
                if (!out.empty())
                    out += w == 0 ? "--" : "-";
                out += model::mnemonicode_words[x % words_base];
                x /= words_base;
            }
        }
        return out;
    }
    case FluidEncoding::emoji: {
        std::string out;
        std::array<std::uint64_t, 7> digits{};
        std::size_t n = 0;
        do {
            digits[n++] = id % 576;
            id /= 576;
        } while (id > 0);
        while (n > 0)
            out += model::fluid_emoji[digits[--n]];
        return out;
    }
    }
    return {};
}

} // namespace jobspec
