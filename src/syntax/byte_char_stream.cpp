#include "syntax/byte_char_stream.hpp"

#include <misc/Interval.h>

namespace jobspec::syntax {

void ByteCharStream::consume() {
    if (at_ < text_.size())
        ++at_;
}

std::size_t ByteCharStream::LA(ssize_t i) {
    if (i == 0)
        return 0;
    // LA(1) is the byte at the index, LA(-1) the one before it.
    const ssize_t at = static_cast<ssize_t>(at_) + (i > 0 ? i - 1 : i);
    if (at < 0 || at >= static_cast<ssize_t>(text_.size()))
        return antlr4::IntStream::EOF;
    return static_cast<unsigned char>(text_[static_cast<std::size_t>(at)]);
}

std::string ByteCharStream::getText(const antlr4::misc::Interval& interval) {
    if (interval.a < 0 || interval.b < interval.a ||
        static_cast<std::size_t>(interval.a) >= text_.size())
        return {};
    const auto begin = static_cast<std::size_t>(interval.a);
    return std::string(text_.substr(begin, static_cast<std::size_t>(interval.b) - begin + 1));
}

} // namespace jobspec::syntax
