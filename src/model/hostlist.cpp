#include <jobspec/hostlist.hpp>

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>

#include "model/decoders.hpp"
#include "model/decimal.hpp"
#include "model/host_cursor.hpp"
#include "model/hostlist_pieces.hpp"
#include "support/chars.hpp"

namespace jobspec {

namespace {

using Run = Hostlist::Run;
using HostlistKind = model::HostlistError;

Unexpected<model::HostlistCodecError> fail(HostlistKind kind, std::size_t offset,
                                           std::size_t length, std::string message) {
    return {{kind, offset, length, std::move(message)}};
}

/// RFC 29: printable, non-whitespace ASCII other than '[', ']' and ','.
bool name_char(char c) {
    return c > ' ' && c < 0x7F && c != '[' && c != ']' && c != ',';
}

std::size_t digit_count(std::uint64_t n) {
    std::size_t d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

/// Appends n zero-padded to `width` digits to `out`, allocating nothing of its own.
void append_padded(std::string& out, std::uint64_t n, std::uint8_t width) {
    std::array<char, 20> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), n).ptr;
    const auto size = static_cast<std::size_t>(end - digits.data());
    if (size < width)
        out.append(width - size, '0');
    out.append(digits.data(), size);
}

std::string padded(std::uint64_t n, std::uint8_t width) {
    std::string digits;
    append_padded(digits, n, width);
    return digits;
}

/// Whether n prints the same with either zero-padding width.
bool prints_alike(std::uint64_t n, std::uint8_t a, std::uint8_t b) {
    const std::size_t d = digit_count(n);
    return a == b || (a <= d && b <= d);
}

/// Whether `digits` is how n prints with zero-padding `width`.
bool prints_as(std::string_view digits, std::uint64_t n, std::uint8_t width) {
    if (digits.size() != std::max<std::size_t>(digit_count(n), width))
        return false;
    std::uint64_t v = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v == n;
}

/// The most digits a number in a host name may have: its width must fit a Run's.
constexpr std::size_t max_digits = std::numeric_limits<std::uint8_t>::max();

/// Whether `digits` (all digits) is a number a run can hold: at most max_host_number,
/// and no longer than a width can say.
bool is_number(std::string_view digits) {
    if (digits.size() < 20) // below 10^19, so below max_host_number: the common case, no scan
        return true;
    if (digits.size() > max_digits)
        return false;
    const auto scanned = model::scan_decimal(digits, Hostlist::max_host_number);
    return scanned.length == digits.size() && !scanned.overflowed;
}

/// A host name split at its last run of digits.
struct Split {
    std::string_view prefix;
    std::string_view digits;
    std::string_view suffix;
};

std::optional<Split> split_last_number(std::string_view host) {
    std::size_t end = host.size();
    while (end > 0 && !support::is_digit(host[end - 1]))
        --end;
    if (end == 0)
        return std::nullopt;
    std::size_t begin = end;
    while (begin > 0 && support::is_digit(host[begin - 1]))
        --begin;
    const std::string_view digits = host.substr(begin, end - begin);
    // Too large to be a number we keep: the name stays whole.
    if (!is_number(digits))
        return std::nullopt;
    return Split{host.substr(0, begin), digits, host.substr(end)};
}

/// The width a number written as `digits` sets: its length when it has a leading zero.
std::uint8_t width_of(std::string_view digits) {
    return digits.size() > 1 && digits[0] == '0' ? static_cast<std::uint8_t>(digits.size()) : 0;
}

std::uint64_t value_of(std::string_view digits) {
    std::uint64_t v = 0;
    for (const char c : digits)
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    return v;
}

/// The digits between a run's prefix and suffix in `host`, or nothing when `host` does
/// not have them around some digits.
std::optional<std::string_view> digits_in(const Run& run, std::string_view host) {
    if (host.size() <= run.prefix.size() + run.suffix.size() ||
        host.substr(0, run.prefix.size()) != run.prefix ||
        host.substr(host.size() - run.suffix.size()) != run.suffix)
        return std::nullopt;
    const std::string_view digits =
        host.substr(run.prefix.size(), host.size() - run.prefix.size() - run.suffix.size());
    if (!std::all_of(digits.begin(), digits.end(), support::is_digit) || !is_number(digits))
        return std::nullopt;
    return digits;
}

/// Whether `host` is prefix + <n in [first, last] as run numbers print> + suffix; the
/// number is returned.
std::optional<std::uint64_t> number_in(const Run& run, std::string_view host) {
    if (!run.numbered)
        return host == run.prefix ? std::optional<std::uint64_t>(0) : std::nullopt;
    const auto digits = digits_in(run, host);
    if (!digits)
        return std::nullopt;
    const std::uint64_t n = value_of(*digits);
    if (n < run.first || n > run.last || !prints_as(*digits, n, run.width))
        return std::nullopt;
    return n;
}

/// Whether the run is split at its name's last run of digits (as append() would split).
bool canonical(const Run& run) {
    if (!run.numbered)
        return true;
    for (const char c : run.suffix)
        if (support::is_digit(c))
            return false;
    return run.prefix.empty() || !support::is_digit(run.prefix.back());
}

} // namespace

Expected<Hostlist, model::HostlistCodecError> model::decode_hostlist(std::string_view text) {
    Hostlist out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        // One expression: prefix[idlist]suffix, up to a ',' outside brackets.
        const std::size_t start = pos;
        while (pos < text.size() && name_char(text[pos]))
            ++pos;
        const std::string_view prefix = text.substr(start, pos - start);
        if (pos == text.size() || text[pos] == ',') {
            if (!prefix.empty())
                out.append(prefix);
            ++pos;
            continue;
        }
        if (text[pos] != '[')
            return fail(HostlistKind::syntax, pos, 1,
                        text[pos] == ']'
                            ? std::string("']' has no opening '['")
                            : fmt::format("'{}' cannot be in a host name", text.substr(pos, 1)));
        const std::size_t open = pos++;
        std::vector<Run> runs;
        std::uint8_t width = 0;
        while (true) {
            const std::size_t at = pos;
            const auto lo = model::scan_decimal(text.substr(pos), Hostlist::max_host_number);
            if (lo.length == 0) {
                if (pos >= text.size())
                    return fail(HostlistKind::syntax, open, 1, "'[' is never closed");
                return fail(
                    HostlistKind::syntax, pos, 1,
                    text[pos] == ']' && pos == open + 1
                        ? std::string("'[]' lists no numbers")
                        : fmt::format("expected a number, found '{}'", text.substr(pos, 1)));
            }
            if (lo.overflowed)
                return fail(HostlistKind::overflow, pos, lo.length,
                            fmt::format("'{}' is larger than {}", text.substr(pos, lo.length),
                                        Hostlist::max_host_number));
            if (lo.length > max_digits)
                return fail(
                    HostlistKind::overflow, pos, lo.length,
                    fmt::format("a number in a host name has at most {} digits", max_digits));
            if (runs.empty())
                width = width_of(text.substr(pos, lo.length));
            pos += lo.length;
            std::uint64_t hi = lo.value;
            if (pos < text.size() && text[pos] == '-') {
                ++pos;
                const auto d = model::scan_decimal(text.substr(pos), Hostlist::max_host_number);
                if (d.length == 0)
                    return fail(HostlistKind::syntax, pos, pos < text.size() ? 1 : 0,
                                "expected the end of the range");
                if (d.overflowed)
                    return fail(HostlistKind::overflow, pos, d.length,
                                fmt::format("'{}' is larger than {}", text.substr(pos, d.length),
                                            Hostlist::max_host_number));
                if (d.value < lo.value)
                    return fail(HostlistKind::order, at, pos + d.length - at,
                                fmt::format("range '{}' ends below its start",
                                            text.substr(at, pos + d.length - at)));
                if (d.value - lo.value == Hostlist::max_host_number)
                    return fail(HostlistKind::overflow, at, pos + d.length - at,
                                fmt::format("range '{}' holds 2^64 hosts, one more than a count "
                                            "can say",
                                            text.substr(at, pos + d.length - at)));
                hi = d.value;
                pos += d.length;
            }
            runs.push_back(Run{std::string(prefix), {}, lo.value, hi, width, true});
            if (pos < text.size() && text[pos] == ',') {
                ++pos;
                continue;
            }
            if (pos < text.size() && text[pos] == ']')
                break;
            if (pos >= text.size())
                return fail(HostlistKind::syntax, open, 1, "'[' is never closed");
            return fail(HostlistKind::syntax, pos, 1,
                        fmt::format("expected ',', '-' or ']', found '{}'", text.substr(pos, 1)));
        }
        ++pos;
        const std::size_t suffix_start = pos;
        while (pos < text.size() && name_char(text[pos]))
            ++pos;
        if (pos < text.size() && text[pos] != ',')
            return fail(HostlistKind::syntax, pos, 1,
                        text[pos] == '['
                            ? std::string("only one [...] may appear in a host name")
                            : fmt::format("'{}' cannot be in a host name", text.substr(pos, 1)));
        const std::string_view suffix = text.substr(suffix_start, pos - suffix_start);
        for (auto& run : runs) {
            run.suffix = suffix;
            out.append(std::move(run));
        }
        ++pos;
    }
    return out;
}

void Hostlist::append(Run run) {
    if (!runs_.empty() && run.numbered) {
        Run& last = runs_.back();
        if (last.numbered && last.prefix == run.prefix && last.suffix == run.suffix &&
            last.last != std::numeric_limits<std::uint64_t>::max() && run.first == last.last + 1 &&
            prints_alike(run.first, run.width, last.width)) {
            last.last = run.last;
            return;
        }
    }
    runs_.push_back(std::move(run));
}

void Hostlist::append(std::string_view host) {
    if (!runs_.empty()) {
        Run& last = runs_.back();
        if (last.numbered && last.last != std::numeric_limits<std::uint64_t>::max()) {
            const auto digits = digits_in(last, host);
            if (digits && prints_as(*digits, last.last + 1, last.width)) {
                ++last.last;
                return;
            }
        }
    }
    const auto split = split_last_number(host);
    if (!split) {
        runs_.push_back(Run{std::string(host), {}, 0, 0, 0, false});
        return;
    }
    const std::uint64_t n = value_of(split->digits);
    runs_.push_back(Run{std::string(split->prefix), std::string(split->suffix), n, n,
                        width_of(split->digits), true});
}

void Hostlist::append(const Hostlist& other) {
    for (const auto& run : other.runs_)
        append(run);
}

namespace {

/// Whether a run splits as its names would be split again: its number is the last run of
/// digits of each name (no digit ends the prefix or is in the suffix) and is written with
/// the width reading it back would give (zero-padded, or not at all). Such a run of one
/// host is appended as itself, without writing and re-reading its name.
bool splits_as_written(const Hostlist::Run& run) {
    const auto digit = [](char c) { return support::is_digit(c); };
    if (!run.numbered)
        return std::none_of(run.prefix.begin(), run.prefix.end(), digit);
    return (run.prefix.empty() || !digit(run.prefix.back())) &&
           std::none_of(run.suffix.begin(), run.suffix.end(), digit) &&
           (run.width == 0 || run.width > digit_count(run.first));
}

} // namespace

std::string Hostlist::encode() const {
    // A single host may have been written with any split ("gpu[15]0" is gpu150); split it
    // the way names split, so it groups with its neighbours and encoding is a fixed point.
    Hostlist normal;
    std::string name;
    for (const auto& run : runs_) {
        // A name continues the last run only by that run's own split, so the shortcut
        // needs the last run to split as written too.
        const bool after_written = normal.runs_.empty() || !normal.runs_.back().numbered ||
                                   splits_as_written(normal.runs_.back());
        if (run.size() != 1 || (after_written && splits_as_written(run))) {
            normal.append(run);
        } else if (!run.numbered) {
            normal.append(std::string_view(run.prefix));
        } else {
            name.assign(run.prefix);
            append_padded(name, run.first, run.width);
            name += run.suffix;
            normal.append(std::string_view(name));
        }
    }
    const std::vector<Run>& runs = normal.runs_;
    std::string out;
    for (std::size_t i = 0; i < runs.size();) {
        if (!out.empty())
            out += ',';
        const Run& head = runs[i];
        if (!head.numbered) {
            out += head.prefix;
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < runs.size() && runs[j].numbered && runs[j].prefix == head.prefix &&
               runs[j].suffix == head.suffix && runs[j].width == head.width)
            ++j;
        out += head.prefix;
        if (j == i + 1 && head.first == head.last) {
            append_padded(out, head.first, head.width);
        } else {
            out += '[';
            for (std::size_t k = i; k < j; ++k) {
                if (k > i)
                    out += ',';
                append_padded(out, runs[k].first, head.width);
                if (runs[k].last != runs[k].first) {
                    out += '-';
                    append_padded(out, runs[k].last, head.width);
                }
            }
            out += ']';
        }
        out += head.suffix;
        i = j;
    }
    return out;
}

std::uint64_t Hostlist::count() const noexcept {
    std::uint64_t n = 0;
    for (const auto& run : runs_) {
        const std::uint64_t size = run.numbered ? run.last - run.first : 0;
        if (size == std::numeric_limits<std::uint64_t>::max() ||
            n > std::numeric_limits<std::uint64_t>::max() - size - 1)
            return std::numeric_limits<std::uint64_t>::max();
        n += size + 1;
    }
    return n;
}

std::optional<std::string> Hostlist::nth(std::uint64_t index) const {
    for (const auto& run : runs_) {
        if (index < run.size())
            return run.numbered ? run.prefix + padded(run.first + index, run.width) + run.suffix
                                : run.prefix;
        index -= run.size();
    }
    return std::nullopt;
}

std::optional<std::uint64_t> Hostlist::find(std::string_view host) const {
    std::uint64_t before = 0;
    for (const auto& run : runs_) {
        if (const auto n = number_in(run, host))
            return before + (run.numbered ? *n - run.first : 0);
        before += run.size();
    }
    return std::nullopt;
}

Hostlist Hostlist::pick(const IdSet& positions) const {
    Hostlist out;
    model::HostCursor cursor(*this);
    std::uint64_t at = 0;
    for (const auto& r : positions.ranges()) {
        cursor.skip(r.first - at);
        cursor.take(r.last - r.first + 1, out);
        at = r.last + 1;
    }
    return out;
}

namespace model {

void for_each_piece(const Hostlist& hosts, const std::function<void(const HostPiece&)>& f) {
    std::uint64_t position = 0;
    for (const auto& run : hosts.runs()) {
        if (!run.numbered) {
            f({run.prefix, {}, 0, false, 0, 0, position++});
            continue;
        }
        if (!canonical(run) && run.size() <= max_resplit_names) {
            // Re-split name by name; append() splits each at its last number.
            for (std::uint64_t n = run.first;; ++n) {
                Hostlist one;
                one.append(run.prefix + padded(n, run.width) + run.suffix);
                const Run& r = one.runs().front();
                f({r.prefix, r.suffix, r.numbered && r.width > 1 ? r.width : std::uint8_t{0},
                   r.numbered, r.first, r.last, position++});
                if (n == run.last)
                    break;
            }
            continue;
        }
        // Numbers too long for the width print as they are: node[09-10] is node09 (padded
        // to 2) and node10 (no padding), two pieces.
        // natural_from = 10^(width-1), the first number with `width` digits of its own;
        // from 20 digits of padding on, no number reaches it (and 10^19 overflows).
        std::uint64_t natural_from = 0;
        if (run.width > 19) {
            natural_from = UINT64_MAX;
        } else if (run.width > 1) {
            natural_from = 1;
            for (int i = 1; i < run.width; ++i)
                natural_from *= 10;
        }
        if (run.first < natural_from) {
            const std::uint64_t last = std::min(run.last, natural_from - 1);
            f({run.prefix, run.suffix, run.width, true, run.first, last, position});
            position += last - run.first + 1;
        }
        if (run.last >= natural_from) {
            const std::uint64_t first = std::max(run.first, natural_from);
            f({run.prefix, run.suffix, 0, true, first, run.last, position});
            position += run.last - first + 1;
        }
    }
}

std::vector<IdSet::Range> same_host_positions(const Hostlist& a, const Hostlist& b) {
    struct OwnedPiece {
        std::string prefix, suffix;
        std::uint8_t width;
        bool numbered;
        std::uint64_t first, position, size;
    };
    const auto pieces = [](const Hostlist& list) {
        std::vector<OwnedPiece> out;
        for_each_piece(list, [&](const HostPiece& p) {
            out.push_back({std::string(p.prefix), std::string(p.suffix), p.width, p.numbered,
                           p.first, p.position, p.last - p.first + 1});
        });
        return out;
    };
    const auto pa = pieces(a);
    const auto pb = pieces(b);
    std::vector<IdSet::Range> out;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < pa.size() && j < pb.size()) {
        const OwnedPiece& x = pa[i];
        const OwnedPiece& y = pb[j];
        const std::uint64_t from = std::max(x.position, y.position);
        const std::uint64_t to = std::min(x.position + x.size, y.position + y.size) - 1;
        // The same key, and the same number at `from` (then at every position after it).
        if (from <= to && x.prefix == y.prefix && x.suffix == y.suffix && x.width == y.width &&
            x.numbered == y.numbered &&
            x.first + (from - x.position) == y.first + (from - y.position)) {
            if (!out.empty() && out.back().last + 1 == from)
                out.back().last = to;
            else
                out.push_back({from, to});
        }
        if (x.position + x.size - 1 == to)
            ++i;
        if (y.position + y.size - 1 == to)
            ++j;
    }
    return out;
}

} // namespace model

std::vector<std::string> Hostlist::expand() const {
    std::vector<std::string> out;
    for (const auto& run : runs_) {
        if (!run.numbered) {
            out.push_back(run.prefix);
            continue;
        }
        for (std::uint64_t n = run.first;; ++n) {
            out.push_back(run.prefix + padded(n, run.width) + run.suffix);
            if (n == run.last)
                break;
        }
    }
    return out;
}

} // namespace jobspec
