// The leaf codecs' own reports of what is wrong (which problem, byte offset and length),
// for the passes inside the library that decide a code by context (a count in a shape is
// shape.*, in a document jobspec.*), the fuzz targets and the unit tests. The public API
// gives the same failures as diagnostics: IdSet::parse, Hostlist::parse, parse_fluid,
// and counts through shapes and documents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <jobspec/count.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/result.hpp>

#include "support/expected.hpp"

namespace jobspec::model {

enum class IdSetError : std::uint8_t {
    syntax,       ///< a character or form RFC 22 does not allow
    leading_zero, ///< "01"
    overflow,     ///< an id above Limits::max_integer
    order,        ///< ids not ascending, or repeated: "3,1", "1-3,2"
};
using IdSetCodecError = CodecError<IdSetError>;

enum class HostlistError : std::uint8_t {
    syntax,   ///< a character or form RFC 29 does not allow
    order,    ///< a range that ends below its start: "foo[5-3]"
    overflow, ///< a number above Limits::max_integer
};
using HostlistCodecError = CodecError<HostlistError>;

enum class CountError : std::uint8_t {
    syntax,           ///< not an integer, idset or range: "4x", "1-"
    empty,            ///< "" or "[]"
    leading_zero,     ///< "04", "1-05"
    not_positive,     ///< "0", "-1", a 0 in an idset, a range minimum of 0
    overflow,         ///< a number above Limits::max_integer
    idset_order,      ///< "9,4", "1,1"
    range_order,      ///< "3-1": maximum below minimum
    operand,          ///< operand 0, or below 2 with '*' or '^'
    unknown_operator, ///< "1-4:2:/"
    power_minimum,    ///< '^' with a minimum below 2
};
using CountCodecError = CodecError<CountError>;

/// Why a string is not a FLUID; `encoding` is the one detected, offset and length cover
/// the offending part of the input.
struct FluidError {
    enum class Kind : std::uint8_t {
        empty,        ///< nothing but whitespace
        character,    ///< a character outside the encoding's alphabet
        format,       ///< dothex/kvs not four groups of four hex digits
        unknown_word, ///< not a mnemonicode word (or a remainder-only word)
        word_count,   ///< words, but not six of them
        overflow,     ///< the value does not fit in 64 bits
    };
    Kind kind = Kind::empty;
    FluidEncoding encoding = FluidEncoding::dec;
    std::size_t offset = 0;
    std::size_t length = 0;
    std::string message;
};

/// IdSet::parse's reading, with the problem's kind.
Expected<IdSet, IdSetCodecError> decode_idset(std::string_view text);
/// Hostlist::parse's reading, with the problem's kind.
Expected<Hostlist, HostlistCodecError> decode_hostlist(std::string_view text);
/// A count as written in a shape or an RFC 14 string count, optionally in square
/// brackets: a positive integer ("4"), an idset when it has a comma ("4,9,16,25",
/// "1-3,5"), otherwise a range ("3-30", "2+", "1-4:2:*"). Errors carry the byte offset
/// and length of the offending part of `text`.
Expected<Count, CountCodecError> decode_count(std::string_view text);
/// RFC 14's rules for a range built from fields (dictionary counts): min >= 1, max >= min,
/// operand >= 1, operand >= 2 with '*' or '^', min >= 2 with '^'. The first rule broken
/// (offset and length 0), or nothing.
std::optional<CountCodecError> check_count_range(const CountRange& range);
/// parse_fluid's reading, with the problem's kind. Example: decode_fluid(" ƒuZZybuNNy ")
/// -> {6731191091817518, f58}; decode_fluid("ƒ0") -> character error.
Expected<DecodedFluid, FluidError> decode_fluid(std::string_view text);

/// Each problem as a diagnostic: its code from the one table (codec_codes.hpp), its range
/// the problem's offset and length in the decoded text.
Diagnostic to_diagnostic(const IdSetCodecError& error);
Diagnostic to_diagnostic(const HostlistCodecError& error);
Diagnostic to_diagnostic(const FluidError& error);

/// The decoded value, or the failure as its one diagnostic.
template <class T, class E>
Result<T> as_result(Expected<T, E>&& decoded) {
    if (decoded)
        return std::move(*decoded);
    Diagnostics d;
    d.add(to_diagnostic(decoded.error()));
    return Result<T>(std::move(d));
}

} // namespace jobspec::model
