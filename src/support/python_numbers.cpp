#include "support/python_numbers.hpp"

#include "support/chars.hpp"

#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace jobspec::support {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view t) {
    while (!t.empty() && space(t.front()))
        t.remove_prefix(1);
    while (!t.empty() && space(t.back()))
        t.remove_suffix(1);
    return t;
}

bool digit(char c) { return c >= '0' && c <= '9'; }

/// Digits with single '_' between them, copied to `out` without the '_'; the length used.
std::size_t digit_run(std::string_view t, std::string& out) {
    std::size_t i = 0;
    while (i < t.size()) {
        if (digit(t[i])) {
            out += t[i++];
        } else if (t[i] == '_' && i > 0 && i + 1 < t.size() && digit(t[i + 1]) && digit(t[i - 1])) {
            ++i;
        } else {
            break;
        }
    }
    return i;
}

} // namespace

std::optional<std::int64_t> python_int(std::string_view text) noexcept {
    std::string_view t = trim(text);
    std::string digits;
    bool negative = false;
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
        negative = t[0] == '-';
        t.remove_prefix(1);
    }
    if (t.empty() || digit_run(t, digits) != t.size())
        return std::nullopt;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    return negative ? -value : value;
}

std::optional<double> python_float(std::string_view text) noexcept {
    std::string_view t = trim(text);
    std::string clean;
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
        clean += t[0];
        t.remove_prefix(1);
    }
    if (equals_ignoring_case(t, "inf") || equals_ignoring_case(t, "infinity"))
        return clean == "-" ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::infinity();
    if (equals_ignoring_case(t, "nan"))
        return std::numeric_limits<double>::quiet_NaN();
    std::size_t i = digit_run(t, clean);
    bool any = i > 0;
    if (i < t.size() && t[i] == '.') {
        clean += '.';
        ++i;
        const std::size_t n = digit_run(t.substr(i), clean);
        any = any || n > 0;
        i += n;
    }
    if (!any)
        return std::nullopt;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        clean += 'e';
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            clean += t[i++];
        const std::size_t n = digit_run(t.substr(i), clean);
        if (n == 0)
            return std::nullopt;
        i += n;
    }
    if (i != t.size())
        return std::nullopt;
    return std::strtod(clean.c_str(), nullptr);
}

std::string python_float_repr(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, r.ptr);
    // sci: [-]d[.ddd]e[+-]XX
    const auto e = sci.find('e');
    int exponent = std::atoi(sci.c_str() + e + 1);
    std::string sign;
    std::string mantissa = sci.substr(0, e);
    if (mantissa[0] == '-') {
        sign = "-";
        mantissa.erase(0, 1);
    }
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;
    if (exponent >= -4 && exponent < 16) {
        std::string out;
        if (exponent < 0) {
            out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        } else {
            const auto point = static_cast<std::size_t>(exponent) + 1;
            if (digits.size() <= point)
                out = digits + std::string(point - digits.size(), '0') + ".0";
            else
                out = digits.substr(0, point) + "." + digits.substr(point);
        }
        return sign + out;
    }
    std::string out = digits.substr(0, 1);
    if (digits.size() > 1)
        out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return sign + out + exp;
}

std::optional<double> flux_duration(std::string_view text) noexcept {
    if (text == "inf" || text == "infinity" || text == "INF" || text == "INFINITY")
        return std::numeric_limits<double>::infinity();
    double scale = 1;
    bool round = false;
    if (text.size() >= 2 && text.substr(text.size() - 2) == "ms") {
        scale = 0.001;
        round = true;
        text.remove_suffix(2);
    } else if (!text.empty()) {
        switch (text.back()) {
        case 's':
            text.remove_suffix(1);
            break;
        case 'm':
            scale = 60;
            round = true;
            text.remove_suffix(1);
            break;
        case 'h':
            scale = 3600;
            round = true;
            text.remove_suffix(1);
            break;
        case 'd':
            scale = 86400;
            round = true;
            text.remove_suffix(1);
            break;
        default:
            break;
        }
    }
    const auto value = python_float(text);
    if (!value)
        return std::nullopt;
    if (!round || !std::isfinite(*value))
        return *value * scale;
    // Python's timedelta keeps whole microseconds.
    return std::nearbyint(*value * scale * 1e6) / 1e6;
}

boost::json::value python_number_or_text(std::string_view text) {
    if (const auto i = python_int(text))
        return *i;
    if (const auto f = python_float(text))
        return *f;
    return boost::json::value(boost::json::string_view(text.data(), text.size()));
}

} // namespace jobspec::support
