#include "support/input_limit.hpp"

#include <fmt/format.h>

#include <jobspec/text.hpp>

namespace jobspec::support {

bool within_input_limit(std::string_view text, const Limits& limits, std::string_view what,
                        Diagnostics& diagnostics) {
    if (text.size() <= limits.max_input_bytes)
        return true;
    diagnostics.add(Code::limit_input_size,
                    fmt::format("{} is {} bytes long, more than the limit of {}", what, text.size(),
                                limits.max_input_bytes),
                    Location{SourceRange{0, 0}, {}});
    return false;
}

bool valid_utf8(std::string_view text, Code code, std::string_view what,
                Diagnostics& diagnostics) {
    const std::size_t bad = find_invalid_utf8(text);
    if (bad == std::string_view::npos)
        return true;
    const auto at = static_cast<std::uint32_t>(bad);
    diagnostics.add(code,
                    fmt::format("{} is not valid UTF-8: byte 0x{:02x}", what,
                                static_cast<unsigned char>(text[bad])),
                    Location{SourceRange{at, at + 1}, {}});
    return false;
}

} // namespace jobspec::support
