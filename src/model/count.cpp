#include <jobspec/count.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <jobspec/limits.hpp>

#include "model/codec_codes.hpp"
#include "model/decoders.hpp"
#include "model/decimal.hpp"

namespace jobspec {

namespace {

using CountKind = model::CountError;
using CountFailure = model::CountCodecError;

Unexpected<CountFailure> fail(CountKind kind, std::size_t offset, std::size_t length,
                              std::string message) {
    return {{kind, offset, length, std::move(message)}};
}

/// Scans one number of a range at `at`, reporting what RFC 45 forbids. `what` names it.
Expected<model::Decimal, CountFailure> range_number(std::string_view text, std::size_t at,
                                                    std::string_view what) {
    const auto d = model::scan_decimal(text.substr(at), Limits::max_integer);
    const auto digits = text.substr(at, d.length);
    using S = model::Decimal::Status;
    switch (d.status) {
    case S::ok:
        return d;
    case S::missing:
        if (at >= text.size())
            return fail(CountKind::syntax, at, 0,
                        fmt::format("expected the range {} at the end", what));
        return fail(CountKind::syntax, at, 1,
                    fmt::format("expected the range {}, found '{}'", what, text[at]));
    case S::leading_zero:
        return fail(CountKind::leading_zero, at, d.length,
                    fmt::format("range {} '{}' has a leading zero", what, digits));
    case S::overflow:
        return fail(
            CountKind::overflow, at, d.length,
            fmt::format("range {} '{}' is larger than {}", what, digits, Limits::max_integer));
    }
    return fail(CountKind::syntax, at, 0, "invalid number");
}

Expected<Count, CountFailure> parse_integer(std::string_view text, std::size_t at) {
    const auto d = model::scan_decimal(text.substr(at), Limits::max_integer);
    const auto digits = text.substr(at, d.length);
    using S = model::Decimal::Status;
    if (d.status == S::ok && d.value == 0)
        return fail(CountKind::not_positive, at, d.length, "count must be at least 1");
    switch (d.status) {
    case S::ok:
        break;
    case S::missing:
        return fail(CountKind::syntax, at, 1,
                    fmt::format("expected a count, found '{}'", text[at]));
    case S::leading_zero:
        return fail(CountKind::leading_zero, at, d.length,
                    fmt::format("count '{}' has a leading zero", digits));
    case S::overflow:
        return fail(CountKind::overflow, at, d.length,
                    fmt::format("count '{}' is larger than {}", digits, Limits::max_integer));
    }
    if (at + d.length != text.size())
        return fail(CountKind::syntax, at + d.length, 1,
                    fmt::format("unexpected '{}' after the count", text[at + d.length]));
    return Count{d.value};
}

Expected<Count, CountFailure> parse_idset(std::string_view text, std::size_t at, std::size_t end) {
    auto parsed = model::decode_idset(text.substr(at, end - at));
    if (!parsed) {
        const auto& e = parsed.error();
        CountKind kind = CountKind::syntax;
        switch (e.kind) {
        case model::IdSetError::syntax:
            kind = CountKind::syntax;
            break;
        case model::IdSetError::leading_zero:
            kind = CountKind::leading_zero;
            break;
        case model::IdSetError::overflow:
            kind = CountKind::overflow;
            break;
        case model::IdSetError::order:
            kind = CountKind::idset_order;
            break;
        }
        return fail(kind, at + e.offset, e.length, e.message);
    }
    // Ids ascend, so a 0 can only be the first one written.
    if (parsed->contains(0))
        return fail(CountKind::not_positive, at, 1, "a count of 0 is not allowed");
    return Count{std::move(*parsed)};
}

Expected<Count, CountFailure> parse_range(std::string_view text, std::size_t at, std::size_t end) {
    const std::string_view body = text.substr(0, end);
    CountRange r;
    auto min = range_number(body, at, "minimum");
    if (!min)
        return Unexpected<CountFailure>{min.error()};
    r.min = min->value;
    std::size_t pos = at + min->length;
    if (pos < end && body[pos] == '-') {
        auto max = range_number(body, pos + 1, "maximum");
        if (!max)
            return Unexpected<CountFailure>{max.error()};
        r.max = max->value;
        pos += 1 + max->length;
    } else if (pos < end && body[pos] == '+') {
        ++pos;
    } else {
        return fail(CountKind::syntax, pos, pos < end ? 1 : 0,
                    "expected '-' or '+' after the range minimum");
    }
    if (pos < end && body[pos] == ':') {
        auto operand = range_number(body, pos + 1, "operand");
        if (!operand)
            return Unexpected<CountFailure>{operand.error()};
        r.operand = operand->value;
        r.explicit_step = true;
        pos += 1 + operand->length;
        if (pos < end && body[pos] == ':') {
            ++pos;
            if (pos == end)
                return fail(CountKind::syntax, pos, 0, "expected an operator after ':'");
            if (end - pos > 1)
                return fail(
                    CountKind::syntax, pos, end - pos,
                    fmt::format("operator '{}' is not a single character", body.substr(pos)));
            const char c = body[pos];
            if (c != '+' && c != '*' && c != '^')
                return fail(CountKind::unknown_operator, pos, 1,
                            fmt::format("unknown range operator '{}' (use '+', '*' or '^')", c));
            r.op = static_cast<RangeOperator>(c);
            ++pos;
        }
    }
    if (pos != end)
        return fail(CountKind::syntax, pos, 1, fmt::format("unexpected '{}' in range", body[pos]));
    if (auto err = model::check_count_range(r)) {
        // Point at the part of the text that breaks the rule.
        err->offset = at;
        err->length = end - at;
        return Unexpected<CountFailure>{*err};
    }
    return Count{r};
}

} // namespace

std::string CountRange::format() const {
    std::string out = std::to_string(min);
    out += max ? "-" + std::to_string(*max) : "+";
    if (op != RangeOperator::add || operand != 1) {
        out += ':' + std::to_string(operand);
        if (op != RangeOperator::add) {
            out += ':';
            out += static_cast<char>(op);
        }
    }
    return out;
}

std::optional<CountFailure> model::check_count_range(const CountRange& r) {
    if (r.min == 0)
        return CountFailure{CountKind::not_positive, 0, 0, "range minimum must be at least 1"};
    if (r.max && *r.max < r.min)
        return CountFailure{CountKind::range_order, 0, 0,
                            fmt::format("range maximum {} is below its minimum {}", *r.max, r.min)};
    if (r.operand == 0)
        return CountFailure{CountKind::operand, 0, 0, "range operand must be at least 1"};
    if (r.op != RangeOperator::add && r.operand < 2)
        return CountFailure{CountKind::operand, 0, 0,
                            fmt::format("range operand must be at least 2 with operator '{}'",
                                        static_cast<char>(r.op))};
    if (r.op == RangeOperator::power && r.min < 2)
        return CountFailure{CountKind::power_minimum, 0, 0,
                            "range minimum must be at least 2 with operator '^'"};
    return std::nullopt;
}

Expected<Count, CountFailure> model::decode_count(std::string_view text) {
    std::size_t at = 0;
    std::size_t end = text.size();
    if (!text.empty() && text.front() == '[') {
        if (text.size() < 2 || text.back() != ']')
            return fail(CountKind::syntax, 0, 1, "'[' is not closed by a ']' at the end");
        at = 1;
        end = text.size() - 1;
    }
    if (at == end)
        return fail(CountKind::empty, 0, text.size(), "count is empty");
    if (text[at] == '-')
        return fail(CountKind::not_positive, at, end - at,
                    fmt::format("count '{}' is not positive", text.substr(at, end - at)));
    const std::string_view body = text.substr(at, end - at);
    if (body.find(',') != std::string_view::npos)
        return parse_idset(text, at, end);
    if (body.find_first_of("-+") != std::string_view::npos)
        return parse_range(text, at, end);
    return parse_integer(text.substr(0, end), at);
}

Result<Count> Count::parse(std::string_view text) {
    auto decoded = model::decode_count(text);
    if (decoded)
        return std::move(*decoded);
    const CountFailure& e = decoded.error();
    Diagnostics d;
    const auto begin = static_cast<std::uint32_t>(e.offset);
    d.add(model::code_of(e.kind, model::CountLanguage::shape), e.message,
          Location{SourceRange{begin, begin + static_cast<std::uint32_t>(e.length)}, {}});
    return Result<Count>(std::move(d));
}

namespace {

/// The first few values of a range, "1, 2, 4, ..." (at most four, then "...").
std::string first_values(const CountRange& r) {
    std::string out;
    std::uint64_t v = r.min;
    for (int i = 0; i < 4; ++i) {
        out += (i > 0 ? ", " : "") + std::to_string(v);
        std::uint64_t next = v;
        bool overflow = false;
        if (r.op == RangeOperator::add)
            overflow = __builtin_add_overflow(v, r.operand, &next);
        else if (r.op == RangeOperator::multiply)
            overflow = __builtin_mul_overflow(v, r.operand, &next);
        else
            for (std::uint64_t k = 1; k < r.operand && !overflow; ++k)
                overflow = __builtin_mul_overflow(next, v, &next);
        if (overflow || next <= v || (r.max && next > *r.max))
            return out;
        v = next;
    }
    return out + ", ...";
}

} // namespace

std::string Count::describe() const {
    if (is_fixed())
        return fmt::format("exactly {}", fixed());
    if (is_idset())
        return fmt::format("one of {}", idset().format());
    const CountRange& r = range();
    const std::string bound =
        r.max ? fmt::format("from {} to {}", r.min, *r.max) : fmt::format("at least {}", r.min);
    if (r.op == RangeOperator::add && r.operand == 1)
        return bound;
    const std::string step = r.op == RangeOperator::add ? fmt::format("in steps of {}", r.operand)
                             : r.op == RangeOperator::multiply
                                 ? fmt::format("each {} times the last", r.operand)
                                 : fmt::format("each the last to the power {}", r.operand);
    return fmt::format("{}, {}: {}", bound, step, first_values(r));
}

std::string Count::format() const {
    struct Formatter {
        std::string operator()(std::uint64_t n) const { return std::to_string(n); }
        std::string operator()(const IdSet& s) const { return s.format(); }
        std::string operator()(const CountRange& r) const { return r.format(); }
    };
    return std::visit(Formatter{}, value_);
}

std::uint64_t Count::least() const noexcept {
    if (is_fixed())
        return fixed();
    if (is_idset())
        return idset().empty() ? 0 : idset().first();
    return range().min;
}

std::optional<std::uint64_t> Count::greatest_at_most(std::uint64_t n) const noexcept {
    if (least() > n)
        return std::nullopt;
    if (is_fixed())
        return fixed();
    if (is_idset()) {
        std::uint64_t best = 0;
        for (const auto& r : idset().ranges()) {
            if (r.first > n)
                break;
            best = std::min(r.last, n);
        }
        return best;
    }
    const CountRange& r = range();
    const std::uint64_t top = r.max ? std::min(*r.max, n) : n;
    switch (r.op) {
    case RangeOperator::add:
        return r.min + (top - r.min) / r.operand * r.operand;
    case RangeOperator::multiply: {
        std::uint64_t v = r.min;
        while (v <= top / r.operand)
            v *= r.operand;
        return v;
    }
    case RangeOperator::power: {
        // Each next value is the last raised to the operand.
        std::uint64_t v = r.min;
        for (;;) {
            std::uint64_t next = 1;
            for (std::uint64_t i = 0; i < r.operand; ++i) {
                if (next > top / v)
                    return v;
                next *= v;
            }
            v = next;
        }
    }
    }
    return r.min;
}

} // namespace jobspec
