#include "syntax/query_lexer.hpp"
#include <jobspec/text.hpp>

#include <vector>

#include <fmt/format.h>

#include "ConstraintQuery.h"
#include "support/chars.hpp"
#include "syntax/query_words.hpp"

namespace jobspec::syntax {

namespace {

using P = grammar::ConstraintQuery;


/// Whether c ends a word; an operator also ends at ':'.
bool ends_word(char c, bool operand) {
    return support::is_whitespace(c) || c == '(' || c == ')' || c == '&' || c == '|' || c == '\'' || c == '"' ||
           (!operand && c == ':');
}

/// A keyword of RFC 35's grammar and its token.
struct Keyword {
    std::string_view word;
    std::size_t type;
};

/// The keyword and, or or not at `pos`, or nullptr.
const Keyword* keyword_here(std::string_view text, std::size_t pos) {
    static constexpr Keyword keywords[] = {{"and", P::AND}, {"or", P::OR}, {"not", P::NOT}};
    for (const Keyword& k : keywords)
        if (keyword_at(text, pos, k.word))
            return &k;
    return nullptr;
}

} // namespace

QueryTokenSource::QueryTokenSource(std::string_view text, const Limits& limits,
                                   Diagnostics& diagnostics)
    : TokenListSource("constraint") {
    lex(text, limits, diagnostics);
}

void QueryTokenSource::lex(std::string_view text, const Limits& limits, Diagnostics& diagnostics) {
    const auto error = [&](Code code, std::size_t at, std::size_t length, std::string message,
                           std::string help = {}) {
        diagnostics.add(code, std::move(message),
                        Location{SourceRange{static_cast<std::uint32_t>(at),
                                             static_cast<std::uint32_t>(at + length)},
                                 {}},
                        std::move(help));
        set_fatal();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && !support::is_whitespace(text[i])) || c == 0x7F)
            return error(Code::query_syntax, i, 1,
                         fmt::format("unexpected control character U+{:04X}", c));
    }
    if (const auto bad = find_invalid_utf8(text); bad != std::string_view::npos)
        return error(Code::query_syntax, bad, 1, "text is not valid UTF-8");
    const auto missing_operator = [&](std::size_t colon) {
        error(Code::query_syntax, colon, 1, "expected an operator before ':'",
              "write operator:operand, or just the operand");
    };
    const std::size_t max_depth = limits.effective_depth();
    std::vector<std::size_t> open;
    std::size_t nots = 0;
    const auto deeper = [&](std::size_t at) {
        if (open.size() + nots <= max_depth)
            return true;
        error(Code::limit_depth, at, 1,
              fmt::format("nesting is deeper than the limit of {}", max_depth));
        return false;
    };
    std::size_t pos = 0;
    while (pos < text.size()) {
        const char c = text[pos];
        const std::size_t start = pos;
        if (support::is_whitespace(c)) {
            ++pos;
        } else if (c == '(' || c == ')') {
            if (c == '(') {
                open.push_back(pos);
                if (!deeper(pos))
                    return;
            } else if (open.empty()) {
                return error(Code::query_syntax, pos, 1, "')' has no '('");
            } else {
                open.pop_back();
            }
            push(c == '(' ? P::LPAREN : P::RPAREN, text, pos, pos + 1, 1, 0);
            ++pos;
        } else if (const std::size_t symbol = symbol_at(text, pos)) {
            pos += symbol;
            push(c == '&' ? P::AND : P::OR, text, start, pos, 1, 0);
        } else if (c == '\'' || c == '"') {
            const std::size_t close = text.find(c, pos + 1);
            if (close == std::string_view::npos)
                return error(Code::query_unclosed_quote, pos, 1,
                             fmt::format("{} is never closed", c),
                             fmt::format("add {} to end the operand", c));
            if (close == pos + 1)
                return error(Code::query_syntax, pos, 2,
                             fmt::format("{}{} is empty: an operand needs a character", c, c),
                             "remove the quotes, or put the operand between them");
            if (text[pos + 1] == ':')
                return missing_operator(pos + 1);
            pos = close + 1;
            push(P::QUOTED, text, start, pos, 1, 0);
            nots = 0;
        } else if (c == '-') {
            if (pos + 1 < text.size() && text[pos + 1] == '(')
                return error(Code::query_syntax, pos, 2,
                             "'-' negates a single term, not an expression",
                             "write not (...) to negate an expression");
            push(P::MINUS, text, pos, pos + 1, 1, 0);
            ++pos;
        } else if (const Keyword* keyword = keyword_here(text, pos)) {
            pos += keyword->word.size();
            if (keyword->type == P::NOT) {
                ++nots;
                if (!deeper(start))
                    return;
            }
            push(keyword->type, text, start, pos, 1, 0);
        } else {
            while (pos < text.size() && !ends_word(text[pos], false))
                ++pos;
            const std::string_view word = text.substr(start, pos - start);
            if (word.empty())
                return missing_operator(pos);
            if (pos < text.size() && text[pos] == ':') {
                push(P::WORD, text, start, pos, 1, 0);
                push(P::COLON, text, pos, pos + 1, 1, 0);
                ++pos;
                const std::size_t operand = pos;
                while (pos < text.size() && !ends_word(text[pos], true))
                    ++pos;
                if (pos > operand)
                    push(P::WORD, text, operand, pos, 1, 0);
                nots = 0;
            } else {
                push(P::WORD, text, start, pos, 1, 0);
                nots = 0;
            }
        }
    }
    if (!open.empty())
        return error(Code::query_syntax, open.back(), 1, "'(' is never closed", "add ')'");
    finish(text, 1, 0);
}

} // namespace jobspec::syntax
