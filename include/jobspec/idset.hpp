// IdSet: an RFC 22 set of non-negative integer ids, stored as ranges.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/expected.hpp>

namespace jobspec {

/// A set of non-negative integer ids (RFC 22), stored as sorted, disjoint, non-adjacent
/// inclusive ranges: memory grows with the number of ranges, never with the number of ids,
/// so "0-4294967295" costs one range. Ids are at most Limits::max_integer.
class IdSet {
public:
    /// An inclusive range of ids, first <= last.
    struct Range {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        friend bool operator==(const Range&, const Range&) = default;
    };

    enum class ErrorKind : std::uint8_t {
        syntax,       ///< a character or form RFC 22 does not allow
        leading_zero, ///< "01"
        overflow,     ///< an id above Limits::max_integer
        order,        ///< ids not ascending, or repeated: "3,1", "1-3,2"
    };
    using Error = CodecError<ErrorKind>;

    IdSet() = default;

    /// Parses strict RFC 22: decimal ids without leading zeros in ascending order, each id
    /// or hyphenated range ("a-b", a <= b) separated by commas, optionally in square
    /// brackets. "" and "[]" are the empty set.
    /// Example: parse("[1-3,5]") -> {1,2,3,5}; parse("3,1") -> order error at offset 2.
    static Expected<IdSet, Error> parse(std::string_view text);

    /// The canonical RFC 22 string: ascending, consecutive ids compressed into ranges,
    /// no brackets. Example: {1,2,3,5} -> "1-3,5"; the empty set -> "".
    std::string format() const;

    /// Adds the ids first..last (inclusive; no-op when first > last).
    void insert(std::uint64_t first, std::uint64_t last);
    void insert(std::uint64_t id) { insert(id, id); }

    bool empty() const noexcept { return ranges_.empty(); }
    /// The number of ids (saturates at UINT64_MAX, which no parsed set reaches).
    std::uint64_t count() const noexcept;
    bool contains(std::uint64_t id) const noexcept;
    /// The smallest and largest id; only meaningful when !empty().
    std::uint64_t first() const noexcept { return ranges_.front().first; }
    std::uint64_t last() const noexcept { return ranges_.back().last; }
    const std::vector<Range>& ranges() const noexcept { return ranges_; }

    friend bool operator==(const IdSet&, const IdSet&) = default;

private:
    std::vector<Range> ranges_;
};

} // namespace jobspec
