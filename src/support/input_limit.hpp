// The input-size limit every reader checks first.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::support {

/// Whether `text` is within limits.max_input_bytes. If not, adds limit.input-size
/// ("WHAT is N bytes long, more than the limit of M") at the start of the text.
bool within_input_limit(std::string_view text, const Limits& limits, std::string_view what,
                        Diagnostics& diagnostics);

} // namespace jobspec::support
