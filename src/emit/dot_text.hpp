// Pieces of Graphviz DOT text shared by the pictures jobspec draws.
#pragma once

#include <string>
#include <string_view>

namespace jobspec::emit {

/// `s` as a DOT double-quoted string that dot accepts whatever `s` holds: quotes and
/// backslashes escaped, a newline as DOT's line break (backslash n), other control
/// characters as spaces, bytes that are not UTF-8 as U+FFFD.
std::string dot_quoted(std::string_view s);

} // namespace jobspec::emit
