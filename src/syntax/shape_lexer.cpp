#include "syntax/shape_lexer.hpp"

#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "Shape.h"
#include "support/utf8.hpp"
#include "support/chars.hpp"

namespace jobspec::syntax {

namespace {

using ShapeGrammar = grammar::Shape;

enum class Context : std::uint8_t { list, dict, array };

/// An open bracket or brace, and the nesting depth before it.
struct Open {
    char bracket;
    Context context;
    std::size_t offset;
    std::size_t depth_before;
};


/// Whether `c` ends an unquoted word; value words may hold more (see Shape.g4).
bool ends_word(char c, bool value) {
    switch (c) {
    case '[':
    case ']':
    case '{':
    case '}':
    case ',':
    case '"':
        return true;
    case ';':
    case '/':
    case '=':
    case ':':
        return !value;
    default:
        return support::is_whitespace(c);
    }
}

/// Whether `c` ends a count; ',' and ':' belong to idsets and ranges.
bool ends_count(char c) {
    switch (c) {
    case '[':
    case ']':
    case '{':
    case '}':
    case '/':
    case ';':
    case '=':
    case '"':
        return true;
    default:
        return support::is_whitespace(c);
    }
}

char closing(char open) {
    return open == '[' ? ']' : '}';
}

} // namespace

/// The lexer proper; fills a ShapeTokenSource.
class ShapeLexer {
public:
    ShapeLexer(ShapeTokenSource& out, std::string_view text, const Limits& limits,
               Diagnostics& diagnostics)
        : out_(out), text_(text), max_depth_(limits.effective_depth()), diags_(diagnostics) {}

    void run() {
        while (!out_.fatal()) {
            const std::size_t blank = pos_;
            if (!skip_space())
                break;
            const std::size_t start = pos_;
            const char c = text_[pos_];
            if (stack_.empty() && starts_type(c) &&
                ((pos_ > blank && ends_vertex(previous_)) || previous_ == ShapeGrammar::RBRACE)) {
                // `node=2 core=2`, `node{x}core`: outside brackets a vertex can only be
                // followed by '/'.
                // The fix replaces the blanks on one line; across lines it inserts.
                const bool one_line = text_.substr(blank, start - blank).find('\n') ==
                                      std::string_view::npos;
                separator_mistake(start, 0, "/", ShapeGrammar::SLASH,
                                  fmt::format("expected '/' before '{}'", word_at(start)),
                                  one_line ? blank : start);
                continue;
            }
            if (previous_ == ShapeGrammar::EQUALS && context() == Context::list) {
                lex_count();
                continue;
            }
            const bool value = value_position();
            switch (c) {
            case '[':
                open(c, value ? Context::array : Context::list, ShapeGrammar::LBRACK);
                break;
            case '{':
                open(c, Context::dict, ShapeGrammar::LBRACE);
                break;
            case ']':
            case '}':
                close(c);
                break;
            case '"':
            case '\'':
                lex_string(c);
                break;
            case ';':
            case ',':
                depth_ = stack_.empty() ? 0 : stack_.back().depth_before + 1;
                emit(c == ';' ? ShapeGrammar::SEMI : ShapeGrammar::COMMA, start, ++pos_);
                break;
            case '/':
            case '=':
            case ':':
                if (value) {
                    lex_word(true);
                    break;
                }
                if (c == '/' && !deeper(start))
                    return;
                emit(c == '/' ? ShapeGrammar::SLASH
                              : (c == '=' ? ShapeGrammar::EQUALS : ShapeGrammar::COLON),
                     start, ++pos_);
                break;
            case '+':
            case '-':
                if (value)
                    lex_word(true);
                else
                    emit(c == '+' ? ShapeGrammar::PLUS : ShapeGrammar::MINUS, start, ++pos_);
                break;
            default:
                lex_word(value);
                break;
            }
        }
        if (!out_.fatal() && !stack_.empty()) {
            const Open& o = stack_.back();
            fatal(Code::shape_unclosed_bracket, o.offset, 1,
                  fmt::format("'{}' is never closed", o.bracket),
                  fmt::format("add '{}'", closing(o.bracket)));
        }
        out_.finish(text_, line_, line_start_);
    }

private:
    Context context() const { return stack_.empty() ? Context::list : stack_.back().context; }

    /// Whether the next word is a dictionary value: after ':' in braces, or in an array.
    bool value_position() const {
        const Context c = context();
        return (c == Context::dict && previous_ == ShapeGrammar::COLON) ||
               (c == Context::array &&
                (previous_ == ShapeGrammar::LBRACK || previous_ == ShapeGrammar::COMMA));
    }

    /// Skips whitespace; false at the end of the text.
    bool skip_space() {
        while (pos_ < text_.size() && support::is_whitespace(text_[pos_])) {
            if (text_[pos_] == '\n') {
                ++line_;
                line_start_ = pos_ + 1;
            }
            ++pos_;
        }
        return pos_ < text_.size();
    }

    void emit(std::size_t type, std::size_t begin, std::size_t end) {
        out_.push(type, text_, begin, end, line_, line_start_);
        previous_ = type;
    }

    void error(Code code, std::size_t at, std::size_t length, std::string message,
               std::string help = {}) {
        diags_.add(code, std::move(message),
                   Location{SourceRange{static_cast<std::uint32_t>(at),
                                        static_cast<std::uint32_t>(at + length)},
                            {}},
                   std::move(help));
    }

    void fatal(Code code, std::size_t at, std::size_t length, std::string message,
               std::string help = {}) {
        error(code, at, length, std::move(message), std::move(help));
        out_.set_fatal();
    }

    /// Enters one more nesting level at `at`; false (and fatal) past the depth limit.
    bool deeper(std::size_t at) {
        if (++depth_ <= max_depth_)
            return true;
        fatal(Code::limit_depth, at, 1,
              fmt::format("nesting is deeper than the limit of {}", max_depth_));
        return false;
    }

    void open(char bracket, Context context, std::size_t type) {
        const std::size_t before = depth_;
        if (!deeper(pos_))
            return;
        stack_.push_back(Open{bracket, context, pos_, before});
        emit(type, pos_, pos_ + 1);
        ++pos_;
    }

    void close(char bracket) {
        if (stack_.empty()) {
            fatal(Code::shape_unmatched_bracket, pos_, 1,
                  fmt::format("'{}' has no opening '{}'", bracket, bracket == ']' ? '[' : '{'));
            return;
        }
        const Open o = stack_.back();
        if (closing(o.bracket) != bracket) {
            fatal(Code::shape_unmatched_bracket, pos_, 1,
                  fmt::format("'{}' does not close the '{}' before it", bracket, o.bracket),
                  fmt::format("close it with '{}'", closing(o.bracket)));
            return;
        }
        stack_.pop_back();
        depth_ = o.depth_before;
        emit(bracket == ']' ? ShapeGrammar::RBRACK : ShapeGrammar::RBRACE, pos_, pos_ + 1);
        ++pos_;
    }

    /// COUNT: "[...]" up to the next ']', or a run up to a delimiter. An empty run makes
    /// no token, so the parser reports the missing count.
    void lex_count() {
        const std::size_t start = pos_;
        if (text_[pos_] == '[') {
            const std::size_t close = text_.find(']', pos_);
            if (close == std::string_view::npos) {
                fatal(Code::shape_unclosed_bracket, start, 1, "'[' is never closed",
                      "add ']' after the count");
                return;
            }
            pos_ = close + 1;
        } else {
            while (pos_ < text_.size() && !ends_count(text_[pos_]) && !vertex_follows(start))
                ++pos_;
        }
        if (pos_ > start) {
            check_characters(start, pos_);
            emit(ShapeGrammar::COUNT, start, pos_);
        } else {
            previous_ = 0;
        }
        if (pos_ < text_.size() && pos_ > start && vertex_follows(start)) {
            if (text_[pos_] == ',')
                // `[core=2,gpu=1]`: ids are separated by ',', vertices in a list by ';'.
                separator_mistake(pos_, 1, ";", ShapeGrammar::SEMI,
                                  fmt::format("',' cannot separate the vertex '{}' from the "
                                              "one before it in a list",
                                              word_at(pos_ + 1)));
            else
                // `node=2core=2`: the count ends at the type.
                separator_mistake(pos_, 0, "/", ShapeGrammar::SLASH,
                                  fmt::format("expected '/' before '{}'", word_at(pos_)));
        }
    }

    /// Whether a count that began at `start` has run into the next vertex at pos_: in a
    /// list, ',' and a type (`2,gpu`), ids never starting with a letter; outside brackets,
    /// a type right after digits (`2core`).
    bool vertex_follows(std::size_t start) {
        const char c = text_[pos_];
        if (c == ',' && in_list() && pos_ + 1 < text_.size() && starts_type(text_[pos_ + 1]))
            return true;
        return stack_.empty() && pos_ > start && support::is_digit(text_[pos_ - 1]) &&
               starts_type(c) && type_then_vertex(pos_);
    }

    bool in_list() const { return !stack_.empty() && stack_.back().bracket == '['; }

    /// Whether the word at `at` is followed by what follows a type ('=', '{', '/'), so
    /// that it reads as a vertex rather than a count's text. Positions only grow, and a
    /// word's suffixes end where it does, so each word is scanned once (`1a1a1a...` stays
    /// linear).
    bool type_then_vertex(std::size_t at) {
        if (at >= word_end_) {
            word_end_ = at;
            while (word_end_ < text_.size() && !ends_word(text_[word_end_], false))
                ++word_end_;
        }
        return word_end_ < text_.size() &&
               (text_[word_end_] == '=' || text_[word_end_] == '{' || text_[word_end_] == '/');
    }

    static bool starts_type(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static bool ends_vertex(std::size_t token) {
        return token == ShapeGrammar::COUNT || token == ShapeGrammar::RBRACE ||
               token == ShapeGrammar::NAME;
    }

    /// The word starting at `at`, for messages.
    std::string_view word_at(std::size_t at) const {
        std::size_t end = at;
        while (end < text_.size() && !ends_word(text_[end], false))
            ++end;
        return text_.substr(at, end - at);
    }

    /// A separator written wrong or left out at [at, at + length): reported with the edit
    /// that puts `right` there, and read as if it had been written, so that the rest of
    /// the shape is still checked.
    /// The fix replaces from `fix_from` (at most `at`) on.
    void separator_mistake(std::size_t at, std::size_t length, std::string_view right,
                           std::size_t type, std::string message,
                           std::optional<std::size_t> fix_from = std::nullopt) {
        const SourceRange range{static_cast<std::uint32_t>(at),
                                static_cast<std::uint32_t>(at + length)};
        const SourceRange fixed{static_cast<std::uint32_t>(fix_from.value_or(at)), range.end};
        diags_.add(Code::shape_syntax, std::move(message), Location{range, {}},
                   fmt::format("write '{}' there", right), {FixIt{fixed, std::string(right)}});
        if (type == ShapeGrammar::SEMI)
            depth_ = stack_.back().depth_before + 1;
        else if (!deeper(at))
            return;
        emit(type, at, at + length);
        pos_ = at + length;
    }

    /// STRING: "..." with JSON escapes, or '...' as it is written up to the next '.
    void lex_string(char quote) {
        const std::size_t start = pos_++;
        while (pos_ < text_.size() && text_[pos_] != quote) {
            if (quote == '"' && text_[pos_] == '\\' && pos_ + 1 < text_.size())
                ++pos_;
            ++pos_;
        }
        if (pos_ >= text_.size()) {
            const char other = quote == '"' ? '\'' : '"';
            fatal(Code::shape_unclosed_quote, start, 1,
                  fmt::format("{0}{1}{0} is never closed", other, quote),
                  fmt::format("add {0}{1}{0} to end the string", other, quote));
            return;
        }
        ++pos_;
        check_characters(start + 1, pos_ - 1);
        emit(ShapeGrammar::STRING, start, pos_);
    }

    void lex_word(bool value) {
        const std::size_t start = pos_;
        // A type also ends at a single quote, as in flux; keys and values may hold one.
        const bool type = context() == Context::list;
        while (pos_ < text_.size() && !ends_word(text_[pos_], value) &&
               !(type && text_[pos_] == '\''))
            ++pos_;
        check_characters(start, pos_);
        emit(ShapeGrammar::NAME, start, pos_);
    }

    /// Reports control characters and bytes that are not UTF-8 in [begin, end).
    void check_characters(std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end;) {
            const auto c = static_cast<unsigned char>(text_[i]);
            if (c < 0x20 || c == 0x7F) {
                error(Code::shape_unexpected_character, i, 1,
                      fmt::format("unexpected control character U+{:04X}", c));
                ++i;
                continue;
            }
            const std::size_t n = support::utf8_sequence_length(text_, i);
            if (n == 0) {
                error(Code::shape_invalid_utf8, i, 1, "text is not valid UTF-8");
                ++i;
                continue;
            }
            i += n;
        }
    }

    ShapeTokenSource& out_;
    std::string_view text_;
    std::size_t max_depth_;
    Diagnostics& diags_;
    std::vector<Open> stack_;
    std::size_t depth_ = 0;
    /// Where the word type_then_vertex last scanned ends.
    std::size_t word_end_ = 0;
    std::size_t pos_ = 0;
    std::size_t previous_ = 0;
    std::size_t line_ = 1;
    std::size_t line_start_ = 0;
};

ShapeTokenSource::ShapeTokenSource(std::string_view text, const Limits& limits,
                                   Diagnostics& diagnostics)
    : TokenListSource("shape") {
    ShapeLexer(*this, text, limits, diagnostics).run();
}

} // namespace jobspec::syntax
