#include "support/input_limit.hpp"

#include <fmt/format.h>

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

} // namespace jobspec::support
