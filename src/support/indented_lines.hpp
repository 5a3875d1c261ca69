// Text one item a line, indented two spaces a level, each line optionally ending with
// the item's byte range: the layout of the grammar debugger's tree, AST and IR views.
#pragma once

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include <jobspec/diagnostic.hpp>

namespace jobspec::support {

/// " @[begin,end)", or " @?" for an unknown range.
inline std::string range_text(SourceRange range) {
    if (!range.known())
        return " @?";
    return fmt::format(" @[{},{})", range.begin, range.end);
}

/// Lines indented two spaces a level, each ending with its range when `ranges`.
class IndentedLines {
public:
    explicit IndentedLines(bool ranges) : ranges_(ranges) {}

    void add(std::size_t depth, const std::string& line, SourceRange range) {
        out_.append(2 * depth, ' ');
        out_ += line;
        if (ranges_)
            out_ += range_text(range);
        out_ += '\n';
    }
    std::string take() { return std::move(out_); }

private:
    bool ranges_;
    std::string out_;
};

} // namespace jobspec::support
