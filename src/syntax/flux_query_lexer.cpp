#include "syntax/flux_query_lexer.hpp"

#include <fmt/format.h>

#include <jobspec/text.hpp>

#include "ConstraintQuery.h"
#include "support/utf8.hpp"
#include "syntax/query_words.hpp"

namespace jobspec::syntax {

namespace {

using P = grammar::ConstraintQuery;
using ErrorKind = FluxQueryError::Kind;

/// What flux's lexer skips between tokens.
constexpr bool ignored(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/// Python's `\s` in a str beyond what flux skips: characters that are neither skipped
/// nor part of a term, so flux calls them illegal.
constexpr bool other_python_space(std::uint32_t cp) noexcept {
    return (cp >= 0x1C && cp <= 0x1F) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

/// Code-point positions of byte offsets asked for in increasing order.
class CodePoints {
public:
    explicit CodePoints(std::string_view text) : text_(text) {}

    std::size_t at(std::size_t byte) {
        for (; byte_ < byte; ++byte_)
            if ((static_cast<unsigned char>(text_[byte_]) & 0xC0) != 0x80)
                ++count_;
        return count_;
    }

private:
    std::string_view text_;
    std::size_t byte_ = 0;
    std::size_t count_ = 0;
};

SourceRange range_of(std::size_t begin, std::size_t end) {
    return SourceRange{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
}

} // namespace

FluxQueryTokenSource::FluxQueryTokenSource(std::string_view text, const Limits& limits,
                                           Diagnostics& diagnostics)
    : TokenListSource("constraint") {
    lex(text, limits, diagnostics);
    finish(text, 1, 0);
}

void FluxQueryTokenSource::add(std::size_t type, std::string_view text, std::size_t begin,
                               std::size_t end, std::string flux_text, std::size_t position) {
    push(type, text, begin, end, 1, 0);
    if (lexed_.empty()) // as many as push reserved for the tokens
        lexed_.reserve(tokens().capacity());
    lexed_.push_back(Lexed{std::move(flux_text), position, range_of(begin, end), type});
}

void FluxQueryTokenSource::lex(std::string_view text, const Limits& limits,
                               Diagnostics& diagnostics) {
    CodePoints cp(text);
    const auto fail = [&](ErrorKind kind, std::string what, std::size_t position, std::size_t begin,
                          std::size_t end) {
        stop_ = Stop{FluxQueryError{kind, std::move(what), position}, range_of(begin, end),
                     lexed_.size()};
    };

    // Nesting as the flux rules recurse: each '(' opens a level, and each not/- in a run
    // of them nests inside the one before, until a term or '(' starts a new operand.
    const std::size_t max_depth = limits.effective_depth();
    std::vector<std::size_t> saved; // the run of negations outside each open '('
    std::size_t outside = 0;
    std::size_t negations = 0;
    std::size_t previous = 0;
    const auto deeper = [&](std::size_t at) {
        if (saved.size() + outside + negations <= max_depth)
            return true;
        diagnostics.add(Code::limit_depth,
                        fmt::format("nesting is deeper than the limit of {}", max_depth),
                        Location{range_of(at, at + 1), {}});
        fail(ErrorKind::limit, {}, cp.at(at), at, at + 1);
        return false;
    };
    const auto negated_before = [&] { return previous == P::NOT || previous == P::MINUS; };

    // A term ending in ':' waits for the next one, which it is joined with.
    struct Pending {
        std::string text;
        std::size_t begin = 0;
    };
    std::optional<Pending> pending;
    const auto term = [&](std::string_view value, std::size_t begin, std::size_t end) {
        if (pending) {
            add(P::WORD, text, pending->begin, end, pending->text + std::string(value),
                cp.at(begin));
            pending.reset();
        } else if (value.back() == ':') {
            pending = Pending{std::string(value), begin};
            return;
        } else {
            add(P::WORD, text, begin, end, std::string(value), cp.at(begin));
        }
        if (!negated_before())
            negations = 0;
        previous = P::WORD;
    };
    const auto token = [&](std::size_t type, std::size_t begin, std::size_t end) {
        add(type, text, begin, end, std::string(text.substr(begin, end - begin)), cp.at(begin));
        previous = type;
    };

    // Only C++ callers can pass what is not UTF-8 (a Python str is): it is refused whole.
    if (const auto bad = find_invalid_utf8(text); bad != std::string_view::npos)
        return fail(ErrorKind::illegal_character, "\xEF\xBF\xBD", cp.at(bad), bad, bad + 1);

    std::size_t pos = 0;
    while (pos < text.size()) {
        const char c = text[pos];
        const std::size_t start = pos;
        if (ignored(c)) {
            ++pos;
        } else if (c == '-' || keyword_at(text, pos, "not")) {
            pos += c == '-' ? 1 : 3;
            ++negations;
            if (!deeper(start))
                return;
            token(c == '-' ? P::MINUS : P::NOT, start, pos);
        } else if (const std::size_t symbol = symbol_at(text, pos);
                   symbol != 0 || keyword_at(text, pos, "and") || keyword_at(text, pos, "or")) {
            pos += symbol != 0 ? symbol : (c == 'a' ? 3 : 2);
            negations = 0;
            token(c == '&' || c == 'a' ? P::AND : P::OR, start, pos);
        } else if (c == '(') {
            if (previous != P::NOT)
                negations = 0;
            saved.push_back(negations);
            outside += negations;
            negations = 0;
            if (!deeper(start))
                return;
            token(P::LPAREN, start, ++pos);
        } else if (c == ')') {
            if (!saved.empty()) {
                negations = saved.back();
                outside -= negations;
                saved.pop_back();
            }
            token(P::RPAREN, start, ++pos);
        } else if (c == '\'' || c == '"') {
            const std::size_t close = text.find(c, pos + 1);
            const std::size_t end = close == std::string_view::npos ? text.size() : close;
            if (end > pos + 1)
                term(text.substr(pos + 1, end - pos - 1), pos + 1, end);
            if (close == std::string_view::npos)
                return fail(ErrorKind::unclosed_quote, std::string(1, c), cp.at(start + 1), start,
                            start + 1);
            pos = close + 1;
        } else {
            // A term runs to whitespace (Python's), a parenthesis, & | or a quote.
            while (pos < text.size()) {
                const char d = text[pos];
                if (ignored(d) || d == '(' || d == ')' || d == '&' || d == '|' || d == '\'' ||
                    d == '"')
                    break;
                if (static_cast<unsigned char>(d) < 0x80) { // ASCII: one byte, one code point
                    if (d >= 0x1C && d <= 0x1F)             // other_python_space's ASCII
                        break;
                    ++pos;
                    continue;
                }
                const std::size_t length = support::utf8_sequence_length(text, pos);
                if (other_python_space(support::decode_utf8(text, pos, length)))
                    break;
                pos += length;
            }
            if (pos == start) {
                const std::size_t length = support::utf8_sequence_length(text, pos);
                return fail(ErrorKind::illegal_character, std::string(text.substr(pos, length)),
                            cp.at(pos), pos, pos + length);
            }
            term(text.substr(start, pos - start), start, pos);
        }
    }
    if (pending)
        fail(ErrorKind::missing_argument, pending->text, cp.at(text.size()), pending->begin,
             text.size());
}

} // namespace jobspec::syntax
