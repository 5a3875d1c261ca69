// Hostlists as sets and multisets: sorting, unique, set algebra, removing hosts. All of
// it works on pieces of runs (numbers as ranges), never name by name, so a hostlist of
// billions of hosts written as one range costs one range here too.
#include <jobspec/hostlist.hpp>

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>
#include <utility>

#include "model/hostlist_pieces.hpp"

namespace jobspec {

namespace {

using Run = Hostlist::Run;
using Range = IdSet::Range;

/// A multiset of numbers: disjoint ranges, each with how many times its numbers occur.
class CountedRanges {
public:
    CountedRanges() = default;
    /// The multiset of the numbers of `ranges` (in any order, overlapping or not), built
    /// in one sweep over their sorted ends rather than range by range.
    explicit CountedRanges(const std::vector<Range>& ranges) {
        std::vector<std::pair<std::uint64_t, int>> ends; // (number, +1 starts / -1 ends)
        ends.reserve(2 * ranges.size());
        for (const auto& r : ranges) {
            ends.emplace_back(r.first, 1);
            if (r.last != UINT64_MAX) // a range to the last number ends with the sweep
                ends.emplace_back(r.last + 1, -1);
        }
        std::sort(ends.begin(), ends.end());
        std::uint64_t count = 0;
        std::uint64_t from = 0;
        const auto add = [this](std::uint64_t first, std::uint64_t last, std::uint64_t times) {
            auto prev = ranges_.empty() ? ranges_.end() : std::prev(ranges_.end());
            if (prev != ranges_.end() && prev->second.last + 1 == first &&
                prev->second.count == times)
                prev->second.last = last;
            else
                ranges_.emplace_hint(ranges_.end(), first, Node{last, times});
        };
        for (std::size_t i = 0; i < ends.size();) {
            const std::uint64_t at = ends[i].first;
            if (count > 0 && at > from)
                add(from, at - 1, count);
            for (; i < ends.size() && ends[i].first == at; ++i)
                count += static_cast<std::uint64_t>(ends[i].second); // wraps back down for -1
            from = at;
        }
        if (count > 0)
            add(from, UINT64_MAX, count);
    }

    /// The numbers of first..last in the multiset, each counted once less.
    std::vector<Range> take(std::uint64_t first, std::uint64_t last) {
        std::vector<Range> out;
        split(first, last);
        for (auto it = ranges_.lower_bound(first); it != ranges_.end() && it->first <= last;) {
            out.push_back({it->first, it->second.last});
            it = --it->second.count == 0 ? ranges_.erase(it) : std::next(it);
        }
        return out;
    }

    /// The numbers of first..last in the multiset.
    std::vector<Range> within(std::uint64_t first, std::uint64_t last) const {
        std::vector<Range> out;
        auto it = ranges_.upper_bound(first);
        if (it != ranges_.begin())
            --it;
        for (; it != ranges_.end() && it->first <= last; ++it)
            if (it->second.last >= first)
                out.push_back({std::max(it->first, first), std::min(it->second.last, last)});
        return out;
    }

    /// Each range with its count, ascending.
    template <class F>
    void for_each(F f) const {
        for (const auto& [first, node] : ranges_)
            f(Range{first, node.last}, node.count);
    }

private:
    struct Node {
        std::uint64_t last;
        std::uint64_t count;
    };

    /// Splits ranges so that none crosses first or last.
    void split(std::uint64_t first, std::uint64_t last) {
        split_before(first);
        if (last != UINT64_MAX)
            split_before(last + 1);
    }
    void split_before(std::uint64_t x) {
        auto it = ranges_.upper_bound(x);
        if (it == ranges_.begin())
            return;
        --it;
        if (it->first < x && it->second.last >= x) {
            const Node whole = it->second;
            it->second.last = x - 1;
            ranges_.emplace_hint(std::next(it), x, whole);
        }
    }

    std::map<std::uint64_t, Node> ranges_;
};

/// A hostlist's hosts counted: by prefix, suffix and zero padding (0: none) for names with
/// a number, by name for the others. Equal names always land on the same key.
struct Counted {
    using Key = std::pair<std::string, std::string>;
    std::map<Key, std::map<std::uint8_t, CountedRanges>> numbered;
    std::map<std::string, std::uint64_t> plain;

    Counted() = default;
    explicit Counted(const Hostlist& list) {
        // Ranges gathered per key and width, then counted in one sweep each.
        std::map<Key, std::map<std::uint8_t, std::vector<Range>>> gathered;
        std::vector<Range>* last = nullptr; // the piece before's, the common case
        std::uint8_t last_width = 0;
        std::string_view last_prefix;
        std::string_view last_suffix;
        model::for_each_piece(list, [&](const model::HostPiece& p) {
            if (!p.numbered) {
                ++plain[std::string(p.prefix)];
                return;
            }
            if (last == nullptr || p.width != last_width || p.prefix != last_prefix ||
                p.suffix != last_suffix) {
                const auto it =
                    gathered.try_emplace(Key{std::string(p.prefix), std::string(p.suffix)}).first;
                last = &it->second[p.width];
                last_width = p.width;
                last_prefix = it->first.first;
                last_suffix = it->first.second;
            }
            last->push_back({p.first, p.last});
        });
        for (const auto& [key, widths] : gathered)
            for (const auto& [width, ranges] : widths)
                numbered[key].emplace(width, CountedRanges(ranges));
    }

    /// The counted ranges of a key and width, or nullptr.
    const CountedRanges* find(const Key& key, std::uint8_t width) const {
        const auto it = numbered.find(key);
        if (it == numbered.end())
            return nullptr;
        const auto w = it->second.find(width);
        return w == it->second.end() ? nullptr : &w->second;
    }
    CountedRanges* find(const model::HostPiece& p) {
        return const_cast<CountedRanges*>(
            std::as_const(*this).find(Key{std::string(p.prefix), std::string(p.suffix)}, p.width));
    }
};

/// Runs of one prefix and suffix in host order: by number, then by zero padding. Runs of
/// different paddings may overlap in numbers (00-01 and 000), so a run is cut where a
/// run of another padding starts inside it: 00, 000, 01, not 00-01, 000.
std::vector<std::pair<Run, std::uint64_t>>
by_number(std::vector<std::pair<Run, std::uint64_t>> runs) {
    const auto later = [](const auto& a, const auto& b) {
        return std::tie(a.first.first, a.first.width) > std::tie(b.first.first, b.first.width);
    };
    std::priority_queue<std::pair<Run, std::uint64_t>, std::vector<std::pair<Run, std::uint64_t>>,
                        decltype(later)>
        next(later, std::move(runs));
    std::vector<std::pair<Run, std::uint64_t>> out;
    while (!next.empty()) {
        auto [run, count] = next.top();
        next.pop();
        // Another run starts inside this one: this one goes as far as the number before
        // (or, starting at the same number with more padding, that one number).
        if (!next.empty() && next.top().first.first <= run.last) {
            const std::uint64_t start = next.top().first.first;
            if (start > run.first || run.first < run.last) {
                Run rest = run;
                rest.first = start > run.first ? start : run.first + 1;
                run.last = rest.first - 1;
                next.push({std::move(rest), count});
            }
        }
        out.push_back({std::move(run), count});
    }
    return out;
}

/// The hosts of a list in order: by prefix and suffix (a name without a number by itself,
/// before the numbered names of the same prefix, as flux-core sorts), then by number and
/// padding. `times(range, count)` says how many times a range is written (1 for unique).
template <class Times>
Hostlist in_order(const Counted& c, Times times) {
    using Key = Counted::Key;
    std::vector<std::pair<Key, bool>> keys;
    for (const auto& [key, widths] : c.numbered)
        keys.emplace_back(key, true);
    for (const auto& [name, count] : c.plain)
        keys.emplace_back(Key{name, {}}, false);
    std::sort(keys.begin(), keys.end());
    Hostlist out;
    for (const auto& [key, numbered] : keys) {
        if (!numbered) {
            for (std::uint64_t i = times(Range{}, c.plain.at(key.first)); i > 0; --i)
                out.append(Run{key.first, {}, 0, 0, 0, false});
            continue;
        }
        std::vector<std::pair<Run, std::uint64_t>> runs;
        for (const auto& [width, ranges] : c.numbered.at(key))
            ranges.for_each([&runs, &k = key, w = width](const Range& r, std::uint64_t count) {
                runs.push_back({Run{k.first, k.second, r.first, r.last, w, true}, count});
            });
        for (auto& [run, count] : by_number(std::move(runs))) {
            const std::uint64_t n = times(Range{run.first, run.last}, count);
            if (n == 1) {
                out.append(std::move(run));
                continue;
            }
            // A repeated range: each host as often as it occurs, in order.
            for (std::uint64_t number = run.first;; ++number) {
                for (std::uint64_t i = 0; i < n; ++i)
                    out.append(Run{run.prefix, run.suffix, number, number, run.width, true});
                if (number == run.last)
                    break;
            }
        }
    }
    return out;
}

/// The pieces of `list` in order, each number range cut down to `keep(piece)`'s ranges;
/// names without numbers kept when `keep_plain(name)`.
template <class Keep, class KeepPlain>
Hostlist filter(const Hostlist& list, Keep keep, KeepPlain keep_plain) {
    Hostlist out;
    model::for_each_piece(list, [&](const model::HostPiece& p) {
        if (!p.numbered) {
            if (keep_plain(std::string(p.prefix)))
                out.append(Run{std::string(p.prefix), {}, 0, 0, 0, false});
            return;
        }
        for (const auto& r : keep(p))
            out.append(
                Run{std::string(p.prefix), std::string(p.suffix), r.first, r.last, p.width, true});
    });
    return out;
}

/// first..last without `drop` (ascending ranges within first..last).
std::vector<Range> complement(std::uint64_t first, std::uint64_t last,
                              const std::vector<Range>& drop) {
    std::vector<Range> out;
    std::uint64_t at = first;
    bool done = false;
    for (const auto& d : drop) {
        if (d.first > at)
            out.push_back({at, d.first - 1});
        if (d.last == last) {
            done = true;
            break;
        }
        at = d.last + 1;
    }
    if (!done)
        out.push_back({at, last});
    return out;
}

/// Applies `op` to each (prefix, suffix, width)'s numbers of a and b, as idsets; names
/// without numbers are kept when `keep_plain(in_a, in_b)`.
template <class Op, class KeepPlain>
Hostlist combine(const Hostlist& a, const Hostlist& b, Op op, KeepPlain keep_plain) {
    const Counted ca(a);
    const Counted cb(b);
    const auto ids = [](const CountedRanges* ranges) {
        IdSet out;
        if (ranges != nullptr)
            ranges->for_each([&](const Range& r, std::uint64_t) { out.insert(r.first, r.last); });
        return out;
    };
    Counted result;
    for (const auto* side : {&ca, &cb})
        for (const auto& [key, widths] : side->numbered)
            for (const auto& [width, unused] : widths) {
                if (result.find(key, width) != nullptr)
                    continue;
                result.numbered[key][width] =
                    CountedRanges(op(ids(ca.find(key, width)), ids(cb.find(key, width))).ranges());
            }
    for (const auto* side : {&ca, &cb})
        for (const auto& [name, count] : side->plain)
            if (keep_plain(ca.plain.count(name) > 0, cb.plain.count(name) > 0))
                result.plain[name] = 1;
    return in_order(result, [](const Range&, std::uint64_t) { return std::uint64_t{1}; });
}

} // namespace

Hostlist Hostlist::unique() const {
    return in_order(Counted(*this), [](const Range&, std::uint64_t) { return std::uint64_t{1}; });
}

Hostlist Hostlist::sorted() const {
    return in_order(Counted(*this), [](const Range&, std::uint64_t count) { return count; });
}

Hostlist Hostlist::united(const Hostlist& other) const {
    return combine(
        *this, other, [](const IdSet& a, const IdSet& b) { return a.united(b); },
        [](bool, bool) { return true; });
}

Hostlist Hostlist::intersected(const Hostlist& other) const {
    return combine(
        *this, other, [](const IdSet& a, const IdSet& b) { return a.intersected(b); },
        [](bool in_a, bool in_b) { return in_a && in_b; });
}

Hostlist Hostlist::without(const Hostlist& other) const {
    return combine(
        *this, other, [](const IdSet& a, const IdSet& b) { return a.without(b); },
        [](bool in_a, bool in_b) { return in_a && !in_b; });
}

Hostlist Hostlist::removed(const Hostlist& hosts) const {
    Counted drop(hosts);
    return filter(
        *this,
        [&](const model::HostPiece& p) {
            CountedRanges* ranges = drop.find(p);
            return complement(p.first, p.last,
                              ranges != nullptr ? ranges->take(p.first, p.last)
                                                : std::vector<Range>{});
        },
        [&](const std::string& name) {
            const auto it = drop.plain.find(name);
            if (it == drop.plain.end() || it->second == 0)
                return true;
            --it->second;
            return false;
        });
}

Hostlist Hostlist::excluding(const Hostlist& hosts) const {
    Counted drop(hosts);
    return filter(
        *this,
        [&](const model::HostPiece& p) {
            const CountedRanges* ranges = drop.find(p);
            return complement(p.first, p.last,
                              ranges != nullptr ? ranges->within(p.first, p.last)
                                                : std::vector<Range>{});
        },
        [&](const std::string& name) { return drop.plain.count(name) == 0; });
}

} // namespace jobspec
