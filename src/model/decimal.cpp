#include "model/decimal.hpp"

namespace jobspec::model {

Decimal scan_decimal(std::string_view text, std::uint64_t max) noexcept {
    Decimal d;
    bool overflow = false;
    while (d.length < text.size() && text[d.length] >= '0' && text[d.length] <= '9') {
        const auto digit = static_cast<std::uint64_t>(text[d.length] - '0');
        if (d.value > (max - digit) / 10)
            overflow = true;
        else
            d.value = d.value * 10 + digit;
        ++d.length;
    }
    d.overflowed = overflow;
    if (d.length == 0)
        d.status = Decimal::Status::missing;
    else if (d.length > 1 && text[0] == '0')
        d.status = Decimal::Status::leading_zero;
    else if (overflow)
        d.status = Decimal::Status::overflow;
    else
        d.status = Decimal::Status::ok;
    return d;
}

} // namespace jobspec::model
