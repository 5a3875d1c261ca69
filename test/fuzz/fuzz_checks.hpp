// What every fuzz target asserts about what the library writes: it is valid UTF-8, JSON
// reads back with a strict parser, YAML reads back, and text meant for a terminal holds
// no control or bidirectional character that could act on it. A failed check aborts,
// which libFuzzer reports as a crash with the input that caused it.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>
#include <yaml-cpp/yaml.h>

#include <jobspec/text.hpp>

namespace fuzz {

/// Text any writer produced: valid UTF-8.
inline const std::string& utf8(const std::string& text) {
    if (jobspec::find_invalid_utf8(text) != std::string_view::npos)
        std::abort();
    return text;
}

/// JSON text: valid UTF-8 and one document a strict parser accepts (no comments, no
/// trailing commas, no invalid UTF-8, nothing after the document but the newline).
inline const std::string& json(const std::string& text) {
    utf8(text);
    boost::json::error_code ec;
    boost::json::parse_options strict;
    strict.max_depth = 100000;
    (void)boost::json::parse(text, ec, {}, strict);
    if (ec)
        std::abort();
    return text;
}

/// YAML text: valid UTF-8 that yaml-cpp reads back.
inline const std::string& yaml(const std::string& text) {
    utf8(text);
    try {
        (void)YAML::Load(text);
    } catch (const YAML::Exception&) {
        std::abort();
    }
    return text;
}

/// Text for a terminal (rendered diagnostics, views): valid UTF-8 in which, once the
/// renderer's own colour sequences ("ESC [ digits ; m") are taken out, every line is its
/// own visible_text: no control character but tab, no C1 or bidirectional control.
inline const std::string& terminal(const std::string& text) {
    utf8(text);
    std::string plain;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == ';'))
                ++j;
            if (j < text.size() && text[j] == 'm') {
                i = j;
                continue;
            }
        }
        plain += text[i];
    }
    std::size_t start = 0;
    while (start <= plain.size()) {
        const std::size_t end = std::min(plain.find('\n', start), plain.size());
        const std::string_view line(plain.data() + start, end - start);
        if (jobspec::visible_text(line) != line)
            std::abort();
        start = end + 1;
    }
    return text;
}

} // namespace fuzz
