#include "syntax/directives.hpp"

#include <fmt/format.h>

namespace jobspec::syntax {

namespace {

/// Letters, digits and '_' end a sentinel's prefix; bytes of multi-byte UTF-8 characters
/// count as letters.
bool word_byte(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_' || c >= 0x80;
}

bool blank(std::string_view s) {
    return s.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

/// A directive line: PREFIX (non-word characters) then "flux:" or "FLUX:", then VALUE.
struct Line {
    std::string_view prefix, tag, value;
    std::size_t value_column = 0; // 0-based byte column of the value
};

std::optional<Line> directive_line(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && !word_byte(static_cast<unsigned char>(line[i])))
        ++i;
    const std::string_view tag = line.substr(i, 5);
    if (tag != "flux:" && tag != "FLUX:")
        return std::nullopt;
    return Line{line.substr(0, i), tag, line.substr(i + 5), i + 5};
}

/// POSIX shell single quoting, as Python's shlex.quote.
std::string shell_quoted(std::string_view s) {
    if (s.empty())
        return "''";
    bool safe = true;
    for (char c : s)
        safe = safe && (word_byte(static_cast<unsigned char>(c)) || std::string_view("@%+=:,./-").find(c) != std::string_view::npos);
    if (safe)
        return std::string(s);
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\"'\"'") : std::string(1, c);
    return out + "'";
}

std::size_t count(std::string_view s, std::string_view what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string_view::npos; at = s.find(what, at + 3))
        ++n;
    return n;
}

class Parser {
public:
    Parser(std::string_view script, Diagnostics& d) : script_(script), diags_(d) {}

    std::vector<Directive> parse() {
        std::size_t start = 0;
        std::size_t number = 0;
        while (start <= script_.size() && !diags_.has_errors()) {
            const auto end = script_.find('\n', start);
            if (end == std::string_view::npos && start == script_.size())
                break; // nothing after the last newline
            const std::string_view line =
                script_.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
            ++number;
            this->line(line, number, start);
            if (end == std::string_view::npos)
                break;
            start = end + 1;
        }
        return std::move(out_);
    }

private:
    void error(Code code, std::size_t number, std::size_t offset, std::size_t length,
               std::string message) {
        diags_.add(code, fmt::format("line {}: {}", number, message),
                   Location{{static_cast<std::uint32_t>(offset),
                             static_cast<std::uint32_t>(offset + length)},
                            {}});
    }

    void line(std::string_view text, std::size_t number, std::size_t offset) {
        const auto m = directive_line(text);
        if (open_) {
            if (!m || std::string(m->prefix) + std::string(m->tag) != sentinel_)
                return error(Code::directive_quote, number, offset, text.size(),
                             fmt::format("unterminated multi-line quote at line {}: `{}'",
                                         open_line_, open_start_));
            auto value = triple_quotes(m->value, number, offset + m->value_column);
            if (!value)
                return;
            std::string_view v = *value;
            const bool closes = v.size() >= 3 && v.substr(v.size() - 3) == quote_;
            if (closes)
                v.remove_suffix(3);
            if (v.substr(0, indent_.size()) == indent_)
                v.remove_prefix(indent_.size());
            literal_.push_back(std::string(v));
            if (closes) {
                std::string joined;
                for (std::size_t i = 0; i < literal_.size(); ++i)
                    joined += (i == 0 ? "" : "\n") + literal_[i];
                open_ = false;
                directive(first_ + shell_quoted(joined), open_line_, open_offset_);
            }
            return;
        }
        if (!m) {
            if (!sentinel_.empty() && !stopped_ && !blank(text)) {
                std::string_view trimmed = prefix_;
                while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t'))
                    trimmed.remove_suffix(1);
                if (!trimmed.empty() && text.substr(0, trimmed.size()) != trimmed) {
                    stopped_ = true;
                    stop_line_ = number - 1;
                }
            }
            return;
        }
        if (stopped_)
            return error(Code::directive_orphan, number, offset + m->prefix.size(), 5,
                         fmt::format("orphan '{}' detected: directives disabled after line {}",
                                     m->tag, stop_line_));
        const std::string sentinel = std::string(m->prefix) + std::string(m->tag);
        if (sentinel_.empty()) {
            sentinel_ = sentinel;
            prefix_ = std::string(m->prefix);
        } else if (sentinel != sentinel_) {
            return error(Code::directive_sentinel, number, offset, m->value_column,
                         fmt::format("sentinel changed from '{}' to '{}'", sentinel_, sentinel));
        }
        if (m->value.empty())
            return;
        const std::size_t value_offset = offset + m->value_column;
        auto value = triple_quotes(m->value, number, value_offset);
        if (!value)
            return;
        const std::string_view v = *value;
        if (v.size() >= 3 && (v.substr(v.size() - 3) == "\"\"\"" || v.substr(v.size() - 3) == "'''")) {
            open_ = true;
            quote_ = std::string(v.substr(v.size() - 3));
            const auto first = v.find_first_not_of(" \t");
            indent_ = std::string(v.substr(0, first == std::string_view::npos ? v.size() : first));
            std::string_view head = v.substr(0, v.size() - 3);
            if (head.substr(0, indent_.size()) == indent_)
                head.remove_prefix(indent_.size());
            first_ = std::string(head);
            open_start_ = std::string(v.substr(std::min(indent_.size(), v.size())));
            open_line_ = number;
            open_offset_ = value_offset;
            literal_.clear();
            return;
        }
        directive(std::string(v), number, value_offset);
    }

    /// The value with its first to last triple quote replaced by the shell-quoted text
    /// between them; nothing (reported) for a triple quote followed by more text.
    std::optional<std::string> triple_quotes(std::string_view value, std::size_t number,
                                             std::size_t offset) {
        for (const std::string_view q : {std::string_view("\"\"\""), std::string_view("'''")}) {
            const std::size_t n = count(value, q);
            if (n > 0 && n % 2 == 0) {
                const auto first = value.find(q);
                const auto last = value.rfind(q);
                return std::string(value.substr(0, first)) +
                       shell_quoted(value.substr(first + 3, last - first - 3)) +
                       std::string(value.substr(last + 3));
            }
        }
        for (const std::string_view q : {std::string_view("\"\"\""), std::string_view("'''")}) {
            const auto at = value.find(q);
            if (at != std::string_view::npos && at + 3 < value.size()) {
                std::string_view stripped = value;
                while (!stripped.empty() && blank(stripped.substr(0, 1)))
                    stripped.remove_prefix(1);
                while (!stripped.empty() && blank(stripped.substr(stripped.size() - 1)))
                    stripped.remove_suffix(1);
                error(Code::directive_quote, number, offset + at, 3,
                      fmt::format("unclosed triple quote: {}", stripped));
                return std::nullopt;
            }
        }
        return std::string(value);
    }

    /// Splits a value into words as flux's shlex does; reports its errors.
    void directive(const std::string& value, std::size_t number, std::size_t offset) {
        std::vector<std::string> words;
        std::string word;
        bool in_word = false;
        std::size_t i = 0;
        const auto flush = [&] {
            if (in_word)
                words.push_back(word);
            word.clear();
            in_word = false;
        };
        const std::string_view punctuation = "();<>|&";
        while (i < value.size()) {
            const char c = value[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                flush();
                ++i;
            } else if (c == '#') {
                break;
            } else if (punctuation.find(c) != std::string_view::npos) {
                flush();
                std::string run;
                while (i < value.size() && punctuation.find(value[i]) != std::string_view::npos)
                    run += value[i++];
                words.push_back(run);
            } else if (c == '\\') {
                if (i + 1 >= value.size())
                    return error(Code::directive_quote, number, offset + i, 1,
                                 fmt::format("{}: No escaped character", value));
                word += value[i + 1];
                in_word = true;
                i += 2;
            } else if (c == '"' || c == '\'') {
                in_word = true;
                ++i;
                while (true) {
                    if (i >= value.size())
                        return error(Code::directive_quote, number, offset, value.size(),
                                     fmt::format("{}: No closing quotation", value));
                    if (value[i] == c) {
                        ++i;
                        break;
                    }
                    if (value[i] == '\\' && i + 1 < value.size() &&
                        (value[i + 1] == c || value[i + 1] == '\\')) {
                        word += value[i + 1];
                        i += 2;
                        continue;
                    }
                    word += value[i++];
                }
            } else {
                word += c;
                in_word = true;
                ++i;
            }
        }
        flush();
        if (words.empty())
            return;
        if (words.front().empty() || words.front()[0] != '-')
            return error(Code::directive_unknown, number, offset, value.size(),
                         fmt::format("Unknown directive: {}", value));
        out_.push_back(Directive{number, offset, std::move(words)});
    }

    std::string_view script_;
    Diagnostics& diags_;
    std::vector<Directive> out_;
    std::string sentinel_, prefix_;
    bool stopped_ = false;
    std::size_t stop_line_ = 0;
    bool open_ = false;
    std::string quote_, indent_, first_, open_start_;
    std::size_t open_line_ = 0, open_offset_ = 0;
    std::vector<std::string> literal_;
};

} // namespace

std::vector<Directive> read_directives(std::string_view script, Diagnostics& diagnostics) {
    return Parser(script, diagnostics).parse();
}

} // namespace jobspec::syntax
