#include "support/json_pointer.hpp"

namespace jobspec::support {

void JsonPointer::push(std::string_view key) {
    text_ += '/';
    for (const char c : key) {
        if (c == '~')
            text_ += "~0";
        else if (c == '/')
            text_ += "~1";
        else
            text_ += c;
    }
}

void JsonPointer::push(std::size_t index) {
    text_ += '/';
    text_ += std::to_string(index);
}

void JsonPointer::pop(std::size_t n) {
    for (; n > 0 && !text_.empty(); --n)
        text_.erase(text_.rfind('/'));
}

} // namespace jobspec::support
