// Scanning unsigned decimal numbers the way RFC 22 and RFC 45 write them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace jobspec::model {

/// What scan_decimal found at the start of a text.
struct Decimal {
    enum class Status : std::uint8_t { ok, missing, leading_zero, overflow };
    Status status = Status::missing;
    std::uint64_t value = 0;
    /// Digits consumed: all the leading digits, also when status is not ok.
    std::size_t length = 0;
    /// Whether the digits exceed the maximum, whatever status says first (a number with a
    /// leading zero can also be too large).
    bool overflowed = false;
};

/// Scans the leading run of ASCII digits of `text`: a number without leading zeros
/// and at most `max`. Never reads past the digits.
Decimal scan_decimal(std::string_view text, std::uint64_t max) noexcept;

} // namespace jobspec::model
