#include "sema/flux_instance.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/decimal.hpp"
#include "support/json_pointer.hpp"
#include "support/numbers.hpp"

namespace jobspec::sema {

namespace {

using model::Decimal;
using support::JsonPointer;
using support::PointerScope;

/// libidset holds ids below 2^31 (IDSET_MAX_UNIVERSE).
constexpr std::uint64_t idset_universe = std::uint64_t{1} << 31;
/// libhostlist refuses a range of more hosts (MAX_RANGE) or more ranges in one bracket
/// (MAX_RANGES); it spells out each host of a range followed by a suffix, about a second
/// for a million, and this many at most are taken.
constexpr std::uint64_t hostlist_range_hosts = std::uint64_t{1} << 20;
constexpr std::size_t hostlist_bracket_ranges = 10240;
constexpr std::uint64_t hostlist_spelled_hosts = std::uint64_t{1} << 20;
/// The scheduler expands a stepped count into an idset of at most this many values, and
/// computes min^operand for '^' before it compares; an idset of values past
/// count_value_bound takes it seconds to build (its memory grows with the largest).
constexpr std::uint64_t count_values = 65536;
constexpr std::uint64_t power_operand = 64;
constexpr std::uint64_t count_value_bound = std::uint64_t{1} << 20;

/// flux-core's reading of a `ranks` constraint: its values sorted as text and joined
/// with ',' (flux.idset.IDset of a list), read by libidset's idset_decode: one pair of
/// outer brackets at most, ranges "lo" or "lo-hi" with hi above lo and no leading zero,
/// each above all before it. The largest id (nothing for none), or why it fails.
struct RankReading {
    std::optional<std::uint64_t> largest;
    std::string problem;
};

RankReading read_ranks(std::vector<std::string> values) {
    std::sort(values.begin(), values.end());
    std::string joined;
    for (std::size_t i = 0; i < values.size(); ++i)
        joined.append(i == 0 ? "" : ",").append(values[i]);
    std::string_view s = joined;
    if (s.size() >= 2 && s.front() == '[' && s.back() == ']')
        s = s.substr(1, s.size() - 2);
    if (s.find_first_of("[]") != std::string_view::npos)
        return {{}, fmt::format("brackets inside '{}'", joined)};
    RankReading out;
    while (!s.empty()) {
        const std::size_t comma = std::min(s.find(','), s.size());
        const std::string_view token = s.substr(0, comma);
        s.remove_prefix(std::min(comma + 1, s.size()));
        if (token.empty())
            continue;
        const Decimal lo = model::scan_decimal(token, Limits::max_integer);
        std::uint64_t hi = lo.value;
        bool ok = lo.status == Decimal::Status::ok;
        if (ok && lo.length < token.size()) {
            const Decimal h = model::scan_decimal(token.substr(lo.length + 1), Limits::max_integer);
            ok = token[lo.length] == '-' && h.status == Decimal::Status::ok &&
                 lo.length + 1 + h.length == token.size() && h.value > lo.value;
            hi = h.value;
        }
        if (!ok)
            return {{}, fmt::format("'{}' unreadable in '{}'", token, joined)};
        if (out.largest && lo.value <= *out.largest)
            return {{}, fmt::format("out of order: '{}'", joined)};
        out.largest = hi;
    }
    return out;
}

/// What is wrong with a hostlist as libhostlist reads it: each comma-separated part,
/// prefix[ranges]suffix, its first bracket holding ranges, spelled out host by host
/// when a suffix follows. Nothing when it takes it.
std::optional<std::string> hostlist_problem(std::string_view text) {
    std::uint64_t spelled = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t open = text.find_first_of("[,", i);
        if (open == std::string_view::npos)
            break;
        if (text[open] == ',') {
            i = open + 1;
            continue;
        }
        const std::size_t close = text.find(']', open);
        if (close == std::string_view::npos)
            break;
        std::size_t ranges = 0;
        std::uint64_t hosts = 0;
        for (std::string_view list = text.substr(open + 1, close - open - 1); !list.empty();) {
            const std::size_t comma = std::min(list.find(','), list.size());
            const std::string_view range = list.substr(0, comma);
            list.remove_prefix(std::min(comma + 1, list.size()));
            const Decimal low = model::scan_decimal(range, Limits::max_integer);
            const std::uint64_t lo = low.value;
            const std::uint64_t hi =
                low.length < range.size()
                    ? model::scan_decimal(range.substr(low.length + 1), Limits::max_integer).value
                    : lo;
            const std::uint64_t size = hi >= lo ? hi - lo + 1 : 0;
            if (size > hostlist_range_hosts)
                return fmt::format("flux-core's hostlists take at most {} hosts in a range, "
                                   "not {} ('{}')",
                                   hostlist_range_hosts, size, range);
            if (++ranges > hostlist_bracket_ranges)
                return fmt::format("flux-core's hostlists take at most {} ranges in a bracket",
                                   hostlist_bracket_ranges);
            hosts += size;
        }
        i = std::min(text.find(',', close), text.size());
        if (i > close + 1 && (spelled += hosts) > hostlist_spelled_hosts)
            return fmt::format("flux-core spells out each host of a range with a suffix, here "
                               "more than {}",
                               hostlist_spelled_hosts);
    }
    return std::nullopt;
}

/// Why the scheduler cannot expand a count whose largest value is `largest` in time.
std::optional<std::string> expansion_problem(std::uint64_t largest) {
    if (largest < count_value_bound)
        return std::nullopt;
    return fmt::format("flux-core's scheduler takes seconds to expand count values past {}, "
                       "as {}",
                       count_value_bound - 1, largest);
}

/// What is wrong with a count for the scheduler, which expands a stepped range and an
/// idset into the set of their values. Nothing when it expands it in time.
std::optional<std::string> count_problem(const Count& count) {
    if (count.is_idset())
        return expansion_problem(count.idset().last());
    if (!count.is_range())
        return std::nullopt;
    const CountRange& r = count.range();
    if (r.op == RangeOperator::add && r.operand == 1)
        return std::nullopt;
    if (!r.max)
        return std::string("flux-core's scheduler cannot expand a stepped count with no "
                           "maximum");
    if (r.op == RangeOperator::power && r.operand > power_operand)
        return fmt::format("flux-core's scheduler computes {}^{} first, taking hours; the "
                           "count is only {}",
                           r.min, r.operand, r.min);
    std::uint64_t values = 0;
    std::uint64_t last = r.min;
    for (std::uint64_t v = r.min; v <= *r.max;) {
        if (++values > count_values)
            return fmt::format("flux-core's scheduler expands a stepped count into at most {} "
                               "values",
                               count_values);
        last = v;
        std::uint64_t next = v;
        if (r.op == RangeOperator::add)
            next = support::saturating_sum(v, r.operand);
        else if (r.op == RangeOperator::multiply)
            next = support::saturating_product(v, r.operand);
        else
            for (std::uint64_t k = 1; k < r.operand && next != UINT64_MAX; ++k)
                next = support::saturating_product(next, v);
        if (next == UINT64_MAX || next <= v)
            break;
        v = next;
    }
    return expansion_problem(last);
}

class FluxInstancePass {
public:
    FluxInstancePass(std::uint64_t size, Diagnostics& diagnostics)
        : size_(size), diagnostics_(diagnostics) {}

    void jobspec(const Jobspec& j) {
        if (j.attributes.null)
            diagnostics_.add(Code::flux_attributes_null,
                             "flux-core's job manager cannot read 'attributes: null', and fails "
                             "every job submitted with this one",
                             Location{j.attributes.range, "/attributes"},
                             "write 'attributes: {}' or leave 'attributes' out");
        {
            const PointerScope at(pointer_, "resources");
            resources(j.resources);
        }
        if (!j.attributes.system)
            return;
        const Attribute* constraints = j.attributes.system->find("constraints");
        if (constraints == nullptr)
            return;
        if (const auto* c = std::get_if<Constraint>(&constraints->value)) {
            const PointerScope at(pointer_, "attributes", "system", "constraints");
            range_ = constraints->value_range;
            constraint(*c);
        }
    }

private:
    void resources(const ResourceList& list) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const PointerScope at(pointer_, i);
            const ResourceVertex& v = list[i];
            if (auto problem = count_problem(v.count)) {
                const PointerScope count(pointer_, "count");
                report(Code::flux_count, std::move(*problem), v.count_range);
            }
            const PointerScope with(pointer_, "with");
            resources(v.with);
        }
    }

    void constraint(const Constraint& c) {
        const PointerScope op(pointer_, c.op().name());
        if (c.op() == ConstraintOperator::Kind::not_of && c.children().empty())
            report(Code::flux_constraint,
                   "flux-core's scheduler cannot evaluate 'not' with no constraint", range_);
        if (c.op() == ConstraintOperator::Kind::ranks)
            ranks(c.values());
        for (std::size_t i = 0;
             c.op() == ConstraintOperator::Kind::hostlist && i < c.values().size(); ++i)
            if (auto problem = hostlist_problem(c.values()[i])) {
                const PointerScope at(pointer_, i);
                report(Code::flux_hostlist, std::move(*problem), range_);
            }
        for (std::size_t i = 0; i < c.children().size(); ++i) {
            const PointerScope at(pointer_, i);
            constraint(c.children()[i]);
        }
    }

    void ranks(const std::vector<std::string>& values) {
        const RankReading read = read_ranks(values);
        if (!read.problem.empty())
            report(Code::flux_constraint,
                   fmt::format("flux-core reads the ranks as one idset (sorted as text), {}",
                               read.problem),
                   range_, "write the ranks as one idset in order, as \"2,10-12\"");
        else if (read.largest && *read.largest >= idset_universe)
            report(Code::flux_idset_range,
                   fmt::format("rank {} is past the ids flux-core's idsets hold (0 to {})",
                               *read.largest, idset_universe - 1),
                   range_);
        else if (read.largest && size_ != 0 && *read.largest >= size_)
            report(Code::flux_rank_range,
                   fmt::format("rank {} is not one of the instance's {} ranks (0 to {})",
                               *read.largest, size_, size_ - 1),
                   range_);
    }

    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diagnostics_.add(code, std::move(message), Location{range, pointer_.str()},
                         std::move(help));
    }

    std::uint64_t size_;
    Diagnostics& diagnostics_;
    JsonPointer pointer_;
    SourceRange range_;
};

} // namespace

void check_flux_instance(const Jobspec& jobspec, std::uint64_t size, Diagnostics& diagnostics) {
    FluxInstancePass(size, diagnostics).jobspec(jobspec);
}

} // namespace jobspec::sema
