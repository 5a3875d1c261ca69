#include "syntax/query_lexer.hpp"

#include <fmt/format.h>

#include <jobspec/text.hpp>

#include "ConstraintQuery.h"
#include "support/chars.hpp"
#include "support/utf8.hpp"
#include "syntax/query_words.hpp"

namespace jobspec::syntax {

namespace {

using QueryGrammar = grammar::ConstraintQuery;
using ErrorKind = FluxQueryError::Kind;

/// What flux's lexer skips between tokens.
constexpr bool flux_space(char c) noexcept {
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

/// One pass over the text: the constructs both groupings share, each read as the
/// grouping says.
class QueryTokenSource::Lexer {
public:
    Lexer(QueryTokenSource& out, std::string_view text, const Limits& limits, Diagnostics& d,
          QueryGrouping grouping)
        : out_(out), text_(text), d_(d), flux_(grouping == QueryGrouping::flux), cp_(text),
          max_depth_(limits.effective_depth()) {}

    /// Lexes the whole text; false when it stopped at an error.
    bool run() {
        if (!valid_text())
            return false;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (flux_ ? flux_space(c) : support::is_whitespace(c)) {
                ++pos_;
            } else if (c == '(' || c == ')') {
                if (!parenthesis(c))
                    return false;
            } else if (const std::size_t symbol = symbol_at(text_, pos_)) {
                conjunction(c == '&' ? QueryGrammar::AND : QueryGrammar::OR, symbol);
            } else if (keyword_at(text_, pos_, "and") || keyword_at(text_, pos_, "or")) {
                conjunction(c == 'a' ? QueryGrammar::AND : QueryGrammar::OR, c == 'a' ? 3 : 2);
            } else if (c == '-' || keyword_at(text_, pos_, "not")) {
                if (!negation(c == '-'))
                    return false;
            } else if (c == '\'' || c == '"') {
                if (!quoted(c))
                    return false;
            } else if (!(flux_ ? flux_term() : rfc_word())) {
                return false;
            }
        }
        return at_end();
    }

private:
    // Tokens.

    void token(std::size_t type, std::size_t begin, std::size_t end) {
        out_.push(type, text_, begin, end, 1, 0);
        if (!flux_)
            return;
        if (out_.lexed_.empty()) // as many as push reserved for the tokens
            out_.lexed_.reserve(out_.tokens().capacity());
        out_.lexed_.push_back(Lexed{std::string(text_.substr(begin, end - begin)), cp_.at(begin),
                                    range_of(begin, end), type});
        previous_ = type;
    }

    /// RFC 35's errors: a diagnostic, and the lexing stops.
    bool error(Code code, std::size_t at, std::size_t length, std::string message,
               std::string help = {}) {
        d_.add(code, std::move(message), Location{range_of(at, at + length), {}}, std::move(help));
        out_.set_fatal();
        return false;
    }

    /// flux's errors: where its lexer stops, before the next token.
    bool stop(ErrorKind kind, std::string what, std::size_t position, std::size_t begin,
              std::size_t end) {
        out_.stop_ = Stop{FluxQueryError{kind, std::move(what), position}, range_of(begin, end),
                          out_.lexed_.size()};
        return false;
    }

    bool valid_text() {
        if (!flux_)
            for (std::size_t i = 0; i < text_.size(); ++i) {
                const auto c = static_cast<unsigned char>(text_[i]);
                if ((c < 0x20 && !support::is_whitespace(text_[i])) || c == 0x7F)
                    return error(Code::query_syntax, i, 1,
                                 fmt::format("unexpected control character U+{:04X}", c));
            }
        // Only C++ callers can pass what is not UTF-8 (a Python str is): refused whole.
        const auto bad = find_invalid_utf8(text_);
        if (bad == std::string_view::npos)
            return true;
        return flux_ ? stop(ErrorKind::illegal_character, "\xEF\xBF\xBD", cp_.at(bad), bad, bad + 1)
                     : error(Code::query_syntax, bad, 1, "text is not valid UTF-8");
    }

    // Nesting, as each grammar recurses: each '(' opens a level; a run of `not` (and, in
    // flux's rules, `-`) nests each inside the one before until a term (or, in flux's, a
    // '(') starts a new operand.

    bool deeper(std::size_t at) {
        if (open_.size() + outside_ + negations_ <= max_depth_)
            return true;
        const std::string message =
            fmt::format("nesting is deeper than the limit of {}", max_depth_);
        if (!flux_)
            return error(Code::limit_depth, at, 1, message);
        d_.add(Code::limit_depth, message, Location{range_of(at, at + 1), {}});
        return stop(ErrorKind::limit, {}, cp_.at(at), at, at + 1);
    }

    bool parenthesis(char c) {
        const std::size_t start = pos_++;
        if (c == '(') {
            if (flux_ && previous_ != QueryGrammar::NOT)
                negations_ = 0;
            // The run of negations outside, restored at its ')'.
            open_.push_back({start, flux_ ? negations_ : 0});
            outside_ += open_.back().negations;
            if (flux_)
                negations_ = 0;
            if (!deeper(start))
                return false;
            token(QueryGrammar::LPAREN, start, pos_);
            return true;
        }
        if (open_.empty()) {
            if (!flux_)
                return error(Code::query_syntax, start, 1, "')' has no '('");
        } else {
            if (flux_)
                negations_ = open_.back().negations;
            outside_ -= open_.back().negations;
            open_.pop_back();
        }
        token(QueryGrammar::RPAREN, start, pos_);
        return true;
    }

    void conjunction(std::size_t type, std::size_t length) {
        const std::size_t start = pos_;
        pos_ += length;
        if (flux_)
            negations_ = 0;
        token(type, start, pos_);
    }

    bool negation(bool minus) {
        const std::size_t start = pos_;
        if (minus && !flux_ && pos_ + 1 < text_.size() && text_[pos_ + 1] == '(')
            return error(Code::query_syntax, pos_, 2,
                         "'-' negates a single term, not an expression",
                         "write not (...) to negate an expression");
        pos_ += minus ? 1 : 3;
        if (flux_ || !minus) {
            ++negations_;
            if (!deeper(start))
                return false;
        }
        token(minus ? QueryGrammar::MINUS : QueryGrammar::NOT, start, pos_);
        return true;
    }

    bool quoted(char quote) {
        const std::size_t start = pos_;
        const std::size_t close = text_.find(quote, pos_ + 1);
        if (flux_) {
            const std::size_t end = close == std::string_view::npos ? text_.size() : close;
            if (end > pos_ + 1)
                flux_part(text_.substr(pos_ + 1, end - pos_ - 1), pos_ + 1, end);
            if (close == std::string_view::npos)
                return stop(ErrorKind::unclosed_quote, std::string(1, quote), cp_.at(start + 1),
                            start, start + 1);
            pos_ = close + 1;
            return true;
        }
        if (close == std::string_view::npos)
            return error(Code::query_unclosed_quote, pos_, 1,
                         fmt::format("{} is never closed", quote),
                         fmt::format("add {} to end the operand", quote));
        if (close == pos_ + 1)
            return error(Code::query_syntax, pos_, 2,
                         fmt::format("{}{} is empty: an operand needs a character", quote, quote),
                         "remove the quotes, or put the operand between them");
        if (text_[pos_ + 1] == ':')
            return missing_operator(pos_ + 1);
        pos_ = close + 1;
        token(QueryGrammar::QUOTED, start, pos_);
        negations_ = 0;
        return true;
    }

    // RFC 35's terms: WORD, or WORD COLON [WORD].

    bool missing_operator(std::size_t colon) {
        return error(Code::query_syntax, colon, 1, "expected an operator before ':'",
                     "write operator:operand, or just the operand");
    }

    /// Whether c ends an RFC 35 word; an operator also ends at ':'.
    static bool ends_word(char c, bool operand) {
        return support::is_whitespace(c) || c == '(' || c == ')' || c == '&' || c == '|' ||
               c == '\'' || c == '"' || (!operand && c == ':');
    }

    bool rfc_word() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !ends_word(text_[pos_], false))
            ++pos_;
        if (pos_ == start)
            return missing_operator(pos_);
        token(QueryGrammar::WORD, start, pos_);
        negations_ = 0;
        if (pos_ == text_.size() || text_[pos_] != ':')
            return true;
        token(QueryGrammar::COLON, pos_, pos_ + 1);
        const std::size_t operand = ++pos_;
        while (pos_ < text_.size() && !ends_word(text_[pos_], true))
            ++pos_;
        if (pos_ > operand)
            token(QueryGrammar::WORD, operand, pos_);
        return true;
    }

    // flux's terms: one WORD each, a part ending in ':' joined with the next.

    bool flux_term() {
        const std::size_t start = pos_;
        // A term runs to whitespace (Python's), a parenthesis, & | or a quote.
        while (pos_ < text_.size()) {
            const char d = text_[pos_];
            if (flux_space(d) || d == '(' || d == ')' || d == '&' || d == '|' || d == '\'' ||
                d == '"')
                break;
            if (static_cast<unsigned char>(d) < 0x80) { // ASCII: one byte, one code point
                if (d >= 0x1C && d <= 0x1F)             // other_python_space's ASCII
                    break;
                ++pos_;
                continue;
            }
            const std::size_t length = support::utf8_sequence_length(text_, pos_);
            if (other_python_space(support::decode_utf8(text_, pos_, length)))
                break;
            pos_ += length;
        }
        if (pos_ == start) {
            const std::size_t length = support::utf8_sequence_length(text_, pos_);
            return stop(ErrorKind::illegal_character, std::string(text_.substr(pos_, length)),
                        cp_.at(pos_), pos_, pos_ + length);
        }
        flux_part(text_.substr(start, pos_ - start), start, pos_);
        return true;
    }

    void flux_part(std::string_view value, std::size_t begin, std::size_t end) {
        if (pending_) {
            word(begin, pending_->begin, end, pending_->text + std::string(value));
            pending_.reset();
        } else if (value.back() == ':') {
            pending_ = Pending{std::string(value), begin};
            return;
        } else {
            word(begin, begin, end, std::string(value));
        }
        if (previous_ != QueryGrammar::NOT && previous_ != QueryGrammar::MINUS)
            negations_ = 0;
        previous_ = QueryGrammar::WORD;
    }

    /// A WORD over begin..end whose text for flux is `flux_text`, at the code point of
    /// `at` (its last part's).
    void word(std::size_t at, std::size_t begin, std::size_t end, std::string flux_text) {
        const std::size_t position = cp_.at(at);
        out_.push(QueryGrammar::WORD, text_, begin, end, 1, 0);
        if (out_.lexed_.empty())
            out_.lexed_.reserve(out_.tokens().capacity());
        out_.lexed_.push_back(
            Lexed{std::move(flux_text), position, range_of(begin, end), QueryGrammar::WORD});
    }

    bool at_end() {
        if (flux_) {
            if (pending_)
                return stop(ErrorKind::missing_argument, pending_->text, cp_.at(text_.size()),
                            pending_->begin, text_.size());
            return true;
        }
        if (!open_.empty())
            return error(Code::query_syntax, open_.back().at, 1, "'(' is never closed", "add ')'");
        return true;
    }

    struct Open {
        std::size_t at = 0;
        std::size_t negations = 0;
    };
    struct Pending {
        std::string text;
        std::size_t begin = 0;
    };

    QueryTokenSource& out_;
    std::string_view text_;
    Diagnostics& d_;
    bool flux_;
    CodePoints cp_;
    std::size_t max_depth_;
    std::size_t pos_ = 0;
    std::vector<Open> open_;
    std::size_t outside_ = 0;
    std::size_t negations_ = 0;
    std::size_t previous_ = 0;
    std::optional<Pending> pending_;
};

QueryTokenSource::QueryTokenSource(std::string_view text, const Limits& limits,
                                   Diagnostics& diagnostics, QueryGrouping grouping)
    : TokenListSource("constraint") {
    const bool complete = Lexer(*this, text, limits, diagnostics, grouping).run();
    // RFC 35's errors are fatal: no tokens are given. flux's parser sees the tokens before
    // its lexer stopped.
    if (complete || grouping == QueryGrouping::flux)
        finish(text, 1, 0);
}

} // namespace jobspec::syntax
