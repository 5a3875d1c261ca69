// Count: an RFC 14 resource count, and CountRange: its RFC 45 range form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <jobspec/api.hpp>
#include <jobspec/expected.hpp>
#include <jobspec/idset.hpp>

namespace jobspec {

/// The operator of a count range: how the next acceptable value follows from the last.
enum class RangeOperator : char { add = '+', multiply = '*', power = '^' };

/// An RFC 14 count range (min/max/operator/operand), written in RFC 45 as
/// "min-max:operand:operator" or "min+:operand:operator".
struct JOBSPEC_API CountRange {
    std::uint64_t min = 1;
    /// No value means unbounded ("2+").
    std::optional<std::uint64_t> max;
    RangeOperator op = RangeOperator::add;
    std::uint64_t operand = 1;
    /// Whether operator and operand were written ("2+:1"); a dictionary then shows them
    /// even when unbounded. A bounded range always shows them (RFC 46 use case 1.2).
    bool explicit_step = false;

    /// The canonical RFC 45 string, leaving out the defaults it may leave out.
    /// Example: {3, 30, +, 1} -> "3-30"; {1, 4, *, 2} -> "1-4:2:*"; {2, none, +, 2} -> "2+:2".
    std::string format() const;

    friend bool operator==(const CountRange&, const CountRange&) = default;
};

/// A resource count (RFC 14): a fixed positive integer, a set of acceptable counts
/// (an RFC 22 idset with no zero), or a range.
class JOBSPEC_API Count {
public:
    enum class ErrorKind : std::uint8_t {
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
    using Error = CodecError<ErrorKind>;
    using Value = std::variant<std::uint64_t, IdSet, CountRange>;

    Count() : value_(std::uint64_t{1}) {}
    /// Precondition: each alternative already satisfies check() (parse() guarantees it).
    Count(std::uint64_t fixed) : value_(fixed) {}
    Count(IdSet set) : value_(std::move(set)) {}
    Count(CountRange range) : value_(range) {}

    /// Parses a count as written in a shape or an RFC 14 string count, optionally in
    /// square brackets: a positive integer ("4"), an idset when it has a comma
    /// ("4,9,16,25", "1-3,5"), otherwise a range ("3-30", "2+", "1-4:2:*").
    /// Errors carry the byte offset and length of the offending part of `text`.
    static Expected<Count, Error> parse(std::string_view text);

    /// RFC 14's rules for a range, for ranges built from fields (dictionary counts):
    /// min >= 1, max >= min, operand >= 1, operand >= 2 with '*' or '^', min >= 2 with '^'.
    /// Returns the first rule broken (offset/length 0), or nothing.
    static std::optional<Error> check(const CountRange& range);

    bool is_fixed() const noexcept { return value_.index() == 0; }
    bool is_idset() const noexcept { return value_.index() == 1; }
    bool is_range() const noexcept { return value_.index() == 2; }
    std::uint64_t fixed() const { return std::get<0>(value_); }
    const IdSet& idset() const { return std::get<1>(value_); }
    const CountRange& range() const { return std::get<2>(value_); }
    const Value& value() const noexcept { return value_; }

    /// The count as text: decimal, canonical idset, or canonical range.
    std::string format() const;

    friend bool operator==(const Count&, const Count&) = default;

private:
    Value value_;
};

} // namespace jobspec
