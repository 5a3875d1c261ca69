// The explanations of the diagnostic codes, generated from docs/CODES.md at build time.
#pragma once

#include <string_view>
#include <vector>

namespace jobspec::support {

/// One "## code" section of docs/CODES.md: the code's name and its Markdown text.
struct Explanation {
    std::string_view code;
    std::string_view text;
};

/// Every section, in the document's order.
const std::vector<Explanation>& explanations();

} // namespace jobspec::support
