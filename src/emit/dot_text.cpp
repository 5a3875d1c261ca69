#include "emit/dot_text.hpp"

#include "support/utf8.hpp"

namespace jobspec::emit {

std::string dot_quoted(std::string_view s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = support::utf8_sequence_length(s, i);
        if (n == 0) {
            support::append_utf8(out, 0xFFFD);
            ++i;
            continue;
        }
        const char c = s[i];
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            out += ' ';
        else
            out.append(s.substr(i, n));
        i += n;
    }
    return out + '"';
}

} // namespace jobspec::emit
