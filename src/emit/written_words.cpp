// Shape words: bare or quoted, so that the shape lexer reads each back as written.
#include "emit/written_words.hpp"

#include "support/json_string.hpp"

namespace jobspec::emit {

namespace {

bool ascii_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// A word no rule of the lexer stops or reads as a sign or a number.
bool plain_word(std::string_view s) {
    if (s.empty() || !(ascii_letter(s.front()) || s.front() == '_'))
        return false;
    for (char c : s)
        if (!(ascii_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return false;
    return true;
}

} // namespace

void append_name(std::string& out, std::string_view name) {
    if (plain_word(name))
        out += name;
    else
        support::append_json_quoted(out, name);
}

void append_value_word(std::string& out, std::string_view text) {
    if (plain_word(text) && text != "true" && text != "false" && text != "null")
        out += text;
    else
        support::append_json_quoted(out, text);
}

} // namespace jobspec::emit
