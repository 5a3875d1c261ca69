// IdSet: an RFC 22 set of non-negative integer ids, stored as ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// A set of non-negative integer ids (RFC 22), stored as sorted, disjoint, non-adjacent
/// inclusive ranges: memory grows with the number of ranges, never with the number of ids,
/// so "0-4294967295" costs one range. Ids are at most Limits::max_integer.
class JOBSPEC_API IdSet {
public:
    /// An inclusive range of ids, first <= last.
    struct Range {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        friend bool operator==(const Range&, const Range&) = default;
    };

    IdSet() = default;

    /// Parses strict RFC 22: decimal ids without leading zeros in ascending order, each id
    /// or hyphenated range ("a-b", a <= b) separated by commas, optionally in square
    /// brackets. "" and "[]" are the empty set.
    /// Fails with idset.syntax, idset.leading-zero, idset.overflow (an id above
    /// Limits::max_integer) or idset.order (ids not ascending, or repeated), its range the
    /// offending part of `text`.
    /// Example: parse("[1-3,5]") -> {1,2,3,5}; parse("3,1") -> idset.order at offset 2.
    static Result<IdSet> parse(std::string_view text);

    /// The canonical RFC 22 string: ascending, consecutive ids compressed into ranges,
    /// no brackets. Example: {1,2,3,5} -> "1-3,5"; the empty set -> "".
    std::string format() const;

    /// An idset of the ids first..last (empty when first > last).
    static IdSet range(std::uint64_t first, std::uint64_t last);

    /// Adds the ids first..last (inclusive; no-op when first > last). Adding above the
    /// largest id is amortised constant time.
    void insert(std::uint64_t first, std::uint64_t last);
    void insert(std::uint64_t id) { insert(id, id); }
    /// Removes the ids first..last (inclusive; no-op when first > last).
    void erase(std::uint64_t first, std::uint64_t last);

    /// Set algebra, linear in the number of ranges of both sets.
    IdSet united(const IdSet& other) const;
    /// The union of many sets at once, in O(R log R) for R ranges in all (folding
    /// united() over them would be quadratic in their number).
    static IdSet union_of(const std::vector<IdSet>& sets);
    IdSet intersected(const IdSet& other) const;
    IdSet without(const IdSet& other) const;
    bool intersects(const IdSet& other) const noexcept;
    /// Whether every id of `other` is in this set.
    bool includes(const IdSet& other) const noexcept;

    bool empty() const noexcept { return ranges_.empty(); }
    /// The number of ids (saturates at UINT64_MAX, which no parsed set reaches).
    std::uint64_t count() const noexcept;
    bool contains(std::uint64_t id) const noexcept;
    /// The smallest and largest id; only meaningful when !empty().
    std::uint64_t first() const noexcept { return ranges_.front().first; }
    std::uint64_t last() const noexcept { return ranges_.back().last; }
    /// The smallest id above `id`, or nothing.
    std::optional<std::uint64_t> next(std::uint64_t id) const noexcept;
    /// The position of `id` among the set's ids in ascending order (0 for the first), or
    /// nothing when it is not in the set.
    std::optional<std::uint64_t> position(std::uint64_t id) const noexcept;
    const std::vector<Range>& ranges() const& noexcept { return ranges_; }
    /// By value on a temporary, so `for (auto& r : f().ranges())` cannot dangle.
    std::vector<Range> ranges() && noexcept { return std::move(ranges_); }

    /// Iterates the ids in ascending order without expanding the set.
    class const_iterator {
    public:
        using value_type = std::uint64_t;
        using difference_type = std::ptrdiff_t;
        const_iterator() = default;
        std::uint64_t operator*() const noexcept { return id_; }
        const_iterator& operator++() noexcept;
        const_iterator operator++(int) noexcept {
            auto copy = *this;
            ++*this;
            return copy;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept {
            return a.range_ == b.range_ && (a.range_ == a.end_ || a.id_ == b.id_);
        }

    private:
        friend class IdSet;
        const Range* range_ = nullptr;
        const Range* end_ = nullptr;
        std::uint64_t id_ = 0;
    };
    const_iterator begin() const noexcept;
    const_iterator end() const noexcept;

    friend bool operator==(const IdSet&, const IdSet&) = default;

private:
    std::vector<Range> ranges_;
};

} // namespace jobspec
