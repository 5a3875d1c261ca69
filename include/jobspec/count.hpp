// Count: an RFC 14 resource count, and CountRange: its RFC 45 range form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <jobspec/api.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/result.hpp>

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
    using Value = std::variant<std::uint64_t, IdSet, CountRange>;

    Count() : value_(std::uint64_t{1}) {}
    /// Precondition: each alternative already satisfies RFC 14's rules (a shape's or a
    /// document's lowering guarantees it for the counts it makes).
    Count(std::uint64_t fixed) : value_(fixed) {}
    Count(IdSet set) : value_(std::move(set)) {}
    Count(CountRange range) : value_(range) {}

    bool is_fixed() const noexcept { return value_.index() == 0; }
    bool is_idset() const noexcept { return value_.index() == 1; }
    bool is_range() const noexcept { return value_.index() == 2; }
    std::uint64_t fixed() const { return std::get<0>(value_); }
    const IdSet& idset() const { return std::get<1>(value_); }
    const CountRange& range() const { return std::get<2>(value_); }
    const Value& value() const noexcept { return value_; }

    /// A count as a shape writes one, and as RFC 14 writes a string count, optionally in
    /// square brackets: a positive integer ("4"), an idset when it has a comma
    /// ("4,9,16"), otherwise a range ("3-30", "2+", "1-4:2:*"). Fails with the one
    /// diagnostic a shape's count would get (shape.count-syntax, shape.range-order, ...,
    /// limit.integer), its range the offending bytes of `text`.
    static Result<Count> parse(std::string_view text);

    /// The count as text: decimal, canonical idset, or canonical range.
    std::string format() const;
    /// What the count accepts, in words, for people: "exactly 4", "one of 4,9,16",
    /// "at least 2", "from 3 to 30", "from 1 to 16, each 2 times the last: 1, 2, 4, 8, ...".
    std::string describe() const;

    /// The smallest acceptable value: the fixed count, the idset's first id, the minimum.
    std::uint64_t least() const noexcept;
    /// The largest acceptable value that is at most `n`, or nothing when even the least
    /// is more than `n`. Example: "2-32:2:*" with n = 20 -> 16.
    std::optional<std::uint64_t> greatest_at_most(std::uint64_t n) const noexcept;

    friend bool operator==(const Count&, const Count&) = default;

private:
    Value value_;
};

} // namespace jobspec
