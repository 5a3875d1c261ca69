// What every reader checks first: the input-size limit, and that the text is UTF-8.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::support {

/// Whether `text` is within limits.max_input_bytes. If not, adds limit.input-size
/// ("WHAT is N bytes long, more than the limit of M") at the start of the text.
bool within_input_limit(std::string_view text, const Limits& limits, std::string_view what,
                        Diagnostics& diagnostics);

/// Whether `text` is well-formed UTF-8. If not, adds `code` ("WHAT is not valid UTF-8:
/// byte 0xff") with the range of the first bad byte.
bool valid_utf8(std::string_view text, Code code, std::string_view what,
                Diagnostics& diagnostics);

} // namespace jobspec::support
