#include <jobspec/idset.hpp>

#include <algorithm>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include <jobspec/limits.hpp>

#include "model/decoders.hpp"
#include "model/decimal.hpp"

namespace jobspec {

namespace {

using IdSetKind = model::IdSetError;
using IdSetFailure = model::IdSetCodecError;

Unexpected<model::IdSetCodecError> fail(IdSetKind kind, std::size_t offset, std::size_t length,
                                        std::string message) {
    return {{kind, offset, length, std::move(message)}};
}

/// The error for a number that scan_decimal did not accept, or nothing.
std::optional<model::IdSetCodecError> number_error(const model::Decimal& d, std::string_view text,
                                         std::size_t at) {
    using S = model::Decimal::Status;
    const auto digits = text.substr(at, d.length);
    switch (d.status) {
    case S::ok:
        return std::nullopt;
    case S::missing:
        if (at >= text.size())
            return model::IdSetCodecError{IdSetKind::syntax, at, 0, "expected an id at the end"};
        return model::IdSetCodecError{IdSetKind::syntax, at, 1,
                                      fmt::format("expected an id, found '{}'", text[at])};
    case S::leading_zero:
        return model::IdSetCodecError{IdSetKind::leading_zero, at, d.length,
                                      fmt::format("id '{}' has a leading zero", digits)};
    case S::overflow:
        return model::IdSetCodecError{
            IdSetKind::overflow, at, d.length,
            fmt::format("id '{}' is larger than {}", digits, Limits::max_integer)};
    }
    return std::nullopt;
}

} // namespace

Expected<IdSet, model::IdSetCodecError> model::decode_idset(std::string_view text) {
    std::size_t pos = 0;
    std::size_t end = text.size();
    if (!text.empty() && text.front() == '[') {
        if (text.back() != ']' || text.size() < 2)
            return fail(IdSetKind::syntax, 0, 1, "'[' is not closed by a ']' at the end");
        pos = 1;
        end = text.size() - 1;
    }
    IdSet set;
    if (pos == end)
        return set;
    const std::string_view body = text.substr(0, end);
    bool have_previous = false;
    std::uint64_t previous = 0;
    while (true) {
        const std::size_t start = pos;
        const auto lo = model::scan_decimal(body.substr(pos), Limits::max_integer);
        if (auto err = number_error(lo, body, pos))
            return Unexpected<IdSetFailure>{*err};
        pos += lo.length;
        std::uint64_t hi = lo.value;
        if (pos < end && body[pos] == '-') {
            ++pos;
            const auto d = model::scan_decimal(body.substr(pos), Limits::max_integer);
            if (auto err = number_error(d, body, pos))
                return Unexpected<IdSetFailure>{*err};
            if (d.value < lo.value)
                return fail(IdSetKind::order, start, pos + d.length - start,
                            fmt::format("range '{}' ends below its start",
                                        body.substr(start, pos + d.length - start)));
            hi = d.value;
            pos += d.length;
        }
        if (have_previous && lo.value <= previous)
            return fail(IdSetKind::order, start, pos - start,
                        fmt::format("'{}' is not above the ids before it (ids must be "
                                    "ascending and unique)",
                                    body.substr(start, pos - start)));
        set.insert(lo.value, hi);
        previous = hi;
        have_previous = true;
        if (pos == end)
            return set;
        if (body[pos] != ',')
            return fail(IdSetKind::syntax, pos, 1,
                        fmt::format("unexpected '{}' in idset (expected ',' or '-')", body[pos]));
        ++pos;
    }
}

std::string IdSet::format() const {
    std::string out;
    for (const auto& r : ranges_) {
        if (!out.empty())
            out += ',';
        out += std::to_string(r.first);
        if (r.last != r.first) {
            out += '-';
            out += std::to_string(r.last);
        }
    }
    return out;
}

IdSet IdSet::range(std::uint64_t first, std::uint64_t last) {
    IdSet s;
    s.insert(first, last);
    return s;
}

void IdSet::insert(std::uint64_t first, std::uint64_t last) {
    if (first > last)
        return;
    // The common case when building a set in order: past the end, or touching it.
    if (ranges_.empty() || (ranges_.back().last != std::numeric_limits<std::uint64_t>::max() &&
                            first > ranges_.back().last + 1)) {
        ranges_.push_back(Range{first, last});
        return;
    }
    // The ranges that overlap or touch [first, last] are merged into one.
    auto lo = std::lower_bound(ranges_.begin(), ranges_.end(), first, [](const Range& r, auto v) {
        return r.last != std::numeric_limits<std::uint64_t>::max() && r.last + 1 < v;
    });
    auto hi = lo;
    while (hi != ranges_.end() &&
           (last == std::numeric_limits<std::uint64_t>::max() || hi->first <= last + 1)) {
        first = std::min(first, hi->first);
        last = std::max(last, hi->last);
        ++hi;
    }
    if (lo == hi) {
        ranges_.insert(lo, Range{first, last});
        return;
    }
    *lo = Range{first, last};
    ranges_.erase(lo + 1, hi);
}

void IdSet::erase(std::uint64_t first, std::uint64_t last) {
    if (first > last || ranges_.empty())
        return;
    *this = without(range(first, last));
}

namespace {

/// Appends `r` (which starts at or after the last range's start) to ascending ranges,
/// merged with the last one when they overlap or touch.
void append_merged(std::vector<IdSet::Range>& ranges, const IdSet::Range& r) {
    if (!ranges.empty() && (ranges.back().last == std::numeric_limits<std::uint64_t>::max() ||
                            r.first <= ranges.back().last + 1))
        ranges.back().last = std::max(ranges.back().last, r.last);
    else
        ranges.push_back(r);
}

} // namespace

IdSet IdSet::united(const IdSet& other) const {
    IdSet out;
    out.ranges_.reserve(ranges_.size() + other.ranges_.size());
    auto a = ranges_.begin();
    auto b = other.ranges_.begin();
    while (a != ranges_.end() || b != other.ranges_.end()) {
        const bool take_a =
            b == other.ranges_.end() || (a != ranges_.end() && a->first <= b->first);
        append_merged(out.ranges_, take_a ? *a++ : *b++);
    }
    return out;
}

IdSet IdSet::union_of(const std::vector<IdSet>& sets) {
    std::vector<Range> all;
    std::size_t total = 0;
    for (const auto& s : sets)
        total += s.ranges_.size();
    all.reserve(total);
    for (const auto& s : sets)
        all.insert(all.end(), s.ranges_.begin(), s.ranges_.end());
    std::sort(all.begin(), all.end(),
              [](const Range& a, const Range& b) { return a.first < b.first; });
    IdSet out;
    for (const Range& r : all)
        append_merged(out.ranges_, r);
    return out;
}

IdSet IdSet::intersected(const IdSet& other) const {
    IdSet out;
    auto a = ranges_.begin();
    auto b = other.ranges_.begin();
    while (a != ranges_.end() && b != other.ranges_.end()) {
        const std::uint64_t lo = std::max(a->first, b->first);
        const std::uint64_t hi = std::min(a->last, b->last);
        if (lo <= hi)
            out.ranges_.push_back(Range{lo, hi});
        if (a->last < b->last)
            ++a;
        else
            ++b;
    }
    return out;
}

IdSet IdSet::without(const IdSet& other) const {
    IdSet out;
    auto b = other.ranges_.begin();
    for (Range r : ranges_) {
        while (b != other.ranges_.end() && b->last < r.first)
            ++b;
        bool whole = true;
        for (auto c = b; c != other.ranges_.end() && c->first <= r.last; ++c) {
            if (c->first > r.first)
                out.ranges_.push_back(Range{r.first, c->first - 1});
            if (c->last >= r.last) {
                whole = false;
                break;
            }
            r.first = c->last + 1;
        }
        if (whole)
            out.ranges_.push_back(r);
    }
    return out;
}

bool IdSet::intersects(const IdSet& other) const noexcept {
    auto a = ranges_.begin();
    auto b = other.ranges_.begin();
    while (a != ranges_.end() && b != other.ranges_.end()) {
        if (std::max(a->first, b->first) <= std::min(a->last, b->last))
            return true;
        if (a->last < b->last)
            ++a;
        else
            ++b;
    }
    return false;
}

bool IdSet::includes(const IdSet& other) const noexcept {
    auto a = ranges_.begin();
    for (const auto& r : other.ranges_) {
        while (a != ranges_.end() && a->last < r.first)
            ++a;
        if (a == ranges_.end() || a->first > r.first || a->last < r.last)
            return false;
    }
    return true;
}

std::optional<std::uint64_t> IdSet::next(std::uint64_t id) const noexcept {
    if (id == std::numeric_limits<std::uint64_t>::max())
        return std::nullopt;
    auto it = std::lower_bound(ranges_.begin(), ranges_.end(), id + 1,
                               [](const Range& r, std::uint64_t v) { return r.last < v; });
    if (it == ranges_.end())
        return std::nullopt;
    return std::max(it->first, id + 1);
}

std::optional<std::uint64_t> IdSet::position(std::uint64_t id) const noexcept {
    std::uint64_t before = 0;
    for (const auto& r : ranges_) {
        if (id < r.first)
            return std::nullopt;
        if (id <= r.last)
            return before + (id - r.first);
        before += r.last - r.first + 1;
    }
    return std::nullopt;
}

IdSet::const_iterator& IdSet::const_iterator::operator++() noexcept {
    if (id_ < range_->last) {
        ++id_;
        return *this;
    }
    ++range_;
    if (range_ != end_)
        id_ = range_->first;
    return *this;
}

IdSet::const_iterator IdSet::begin() const noexcept {
    const_iterator it;
    it.range_ = ranges_.data();
    it.end_ = ranges_.data() + ranges_.size();
    if (!ranges_.empty())
        it.id_ = ranges_.front().first;
    return it;
}

IdSet::const_iterator IdSet::end() const noexcept {
    const_iterator it;
    it.range_ = ranges_.data() + ranges_.size();
    it.end_ = it.range_;
    return it;
}

std::uint64_t IdSet::count() const noexcept {
    std::uint64_t n = 0;
    for (const auto& r : ranges_) {
        const std::uint64_t size = r.last - r.first;
        if (size == std::numeric_limits<std::uint64_t>::max() ||
            n > std::numeric_limits<std::uint64_t>::max() - size - 1)
            return std::numeric_limits<std::uint64_t>::max();
        n += size + 1;
    }
    return n;
}

bool IdSet::contains(std::uint64_t id) const noexcept {
    auto it = std::lower_bound(ranges_.begin(), ranges_.end(), id,
                               [](const Range& r, std::uint64_t v) { return r.last < v; });
    return it != ranges_.end() && it->first <= id;
}

} // namespace jobspec
