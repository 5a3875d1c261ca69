#include <jobspec/idset.hpp>

#include <algorithm>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include <jobspec/limits.hpp>

#include "model/decimal.hpp"

namespace jobspec {

namespace {

using Kind = IdSet::ErrorKind;

Unexpected<IdSet::Error> fail(Kind kind, std::size_t offset, std::size_t length,
                              std::string message) {
    return {{kind, offset, length, std::move(message)}};
}

/// The error for a number that scan_decimal did not accept, or nothing.
std::optional<IdSet::Error> number_error(const model::Decimal& d, std::string_view text,
                                         std::size_t at) {
    using S = model::Decimal::Status;
    const auto digits = text.substr(at, d.length);
    switch (d.status) {
    case S::ok:
        return std::nullopt;
    case S::missing:
        if (at >= text.size())
            return IdSet::Error{Kind::syntax, at, 0, "expected an id at the end"};
        return IdSet::Error{Kind::syntax, at, 1,
                            fmt::format("expected an id, found '{}'", text[at])};
    case S::leading_zero:
        return IdSet::Error{Kind::leading_zero, at, d.length,
                            fmt::format("id '{}' has a leading zero", digits)};
    case S::overflow:
        return IdSet::Error{Kind::overflow, at, d.length,
                            fmt::format("id '{}' is larger than {}", digits, Limits::max_integer)};
    }
    return std::nullopt;
}

} // namespace

Expected<IdSet, IdSet::Error> IdSet::parse(std::string_view text) {
    std::size_t pos = 0;
    std::size_t end = text.size();
    if (!text.empty() && text.front() == '[') {
        if (text.back() != ']' || text.size() < 2)
            return fail(Kind::syntax, 0, 1, "'[' is not closed by a ']' at the end");
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
            return Unexpected<Error>{*err};
        pos += lo.length;
        std::uint64_t hi = lo.value;
        if (pos < end && body[pos] == '-') {
            ++pos;
            const auto d = model::scan_decimal(body.substr(pos), Limits::max_integer);
            if (auto err = number_error(d, body, pos))
                return Unexpected<Error>{*err};
            if (d.value < lo.value)
                return fail(Kind::order, start, pos + d.length - start,
                            fmt::format("range '{}' ends below its start",
                                        body.substr(start, pos + d.length - start)));
            hi = d.value;
            pos += d.length;
        }
        if (have_previous && lo.value <= previous)
            return fail(Kind::order, start, pos - start,
                        fmt::format("'{}' is not above the ids before it (ids must be "
                                    "ascending and unique)",
                                    body.substr(start, pos - start)));
        set.insert(lo.value, hi);
        previous = hi;
        have_previous = true;
        if (pos == end)
            return set;
        if (body[pos] != ',')
            return fail(Kind::syntax, pos, 1,
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

void IdSet::insert(std::uint64_t first, std::uint64_t last) {
    if (first > last)
        return;
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
