// FLUIDs: Flux job ids (RFC 19) and their seven string encodings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// The string encodings of a FLUID (RFC 19), and flux-core's f58plain.
enum class FluidEncoding : std::uint8_t {
    dec,      ///< 6731191091817518
    hex,      ///< 0x17e9fb8df16c2e
    dothex,   ///< 0017.e9fb.8df1.6c2e
    kvs,      ///< job.0017.e9fb.8df1.6c2e
    f58,      ///< ƒuZZybuNNy (an ASCII 'f' prefix is accepted when decoding)
    words,    ///< reform-remote-galileo--heart-package-academy (mnemonicode)
    emoji,    ///< base 576 over RFC 19's emoji table
    f58plain, ///< fuZZybuNNy: f58 with an ASCII 'f' (flux-core's name); decoding says f58
};

/// "dec", "hex", "dothex", "kvs", "f58", "words", "emoji", "f58plain".
JOBSPEC_API std::string_view encoding_name(FluidEncoding encoding) noexcept;

/// The encoding with that name, ASCII case ignored (as flux-core does), or nothing.
JOBSPEC_API std::optional<FluidEncoding> encoding_from_name(std::string_view name) noexcept;

/// Which encoding RFC 19's detection order picks for a string (after trimming leading and
/// trailing whitespace): '.' dothex (kvs with "job."), '-' words, 'ƒ' or 'f' f58, bytes
/// f0 9f emoji, "0x" hex, else dec.
JOBSPEC_API FluidEncoding detect_encoding(std::string_view text) noexcept;

/// A decoded FLUID and the encoding it was written in.
struct DecodedFluid {
    std::uint64_t id = 0;
    FluidEncoding encoding = FluidEncoding::dec;
};

/// Decodes a FLUID in any encoding, detected as RFC 19 says. Fails with a fluid.*
/// diagnostic (fluid.empty, fluid.character, fluid.format, fluid.unknown-word,
/// fluid.word-count, fluid.overflow) whose range points into `text` and whose message
/// names the encoding detected. Example: parse_fluid(" ƒuZZybuNNy ") ->
/// {6731191091817518, f58}; parse_fluid("ƒ0") -> fluid.character ("'0' is not a base58
/// digit").
JOBSPEC_API Result<DecodedFluid> parse_fluid(std::string_view text);

/// The FLUID in an encoding. Example: encode_fluid(0, FluidEncoding::f58) -> "ƒ1".
JOBSPEC_API std::string encode_fluid(std::uint64_t id, FluidEncoding encoding);

} // namespace jobspec
