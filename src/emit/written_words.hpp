// Words of the shape language as the writer spells them: bare where they read back as
// themselves, JSON strings otherwise.
#pragma once

#include <string>
#include <string_view>

namespace jobspec::emit {

/// Appends a type, key or label: bare when it is a word of ASCII letters, digits, '_',
/// '.' and '-' that starts with a letter or '_', else as a JSON string.
void append_name(std::string& out, std::string_view name);

/// Appends a string value: bare as append_name has it, unless the word would read as
/// another JSON value (true, false, null), else as a JSON string.
void append_value_word(std::string& out, std::string_view text);

} // namespace jobspec::emit
