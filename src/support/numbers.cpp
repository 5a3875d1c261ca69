#include "support/numbers.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace jobspec::support {

std::optional<double> parse_non_negative(std::string_view text) noexcept {
    if (text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.'))
        return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc{} || r.ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

double exact_double(std::string_view number, double fallback) noexcept {
    double d = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), d);
    return r.ec == std::errc() && r.ptr == number.data() + number.size() ? d : fallback;
}

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) noexcept {
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return std::numeric_limits<std::uint64_t>::max();
    return a * b;
}

std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) noexcept {
    return b > std::numeric_limits<std::uint64_t>::max() - a
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
}

} // namespace jobspec::support
