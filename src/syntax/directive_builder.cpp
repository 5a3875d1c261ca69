#include "syntax/directive_builder.hpp"

#include <fmt/format.h>

namespace jobspec::syntax {

namespace {

using DirectivesGrammar = grammar::Directives;

bool blank(std::string_view s) {
    return s.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n\f\v");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n\f\v") - first + 1);
}

/// POSIX shell single quoting, as Python's shlex.quote (only ASCII word bytes are safe).
std::string shell_quoted(std::string_view s) {
    if (s.empty())
        return "''";
    if (s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "_@%+=:,./-") == std::string_view::npos)
        return std::string(s);
    std::string out = "'";
    for (const char c : s)
        out += c == '\'' ? std::string_view("'\"'\"'") : std::string_view(&c, 1);
    return out + "'";
}

std::size_t count(std::string_view s, std::string_view what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string_view::npos; at = s.find(what, at + 3))
        ++n;
    return n;
}

/// Where three characters in a row are each '"' or '\'', from `from` on.
std::size_t triple_at(std::string_view s, std::size_t from) {
    const auto quote = [](char c) { return c == '"' || c == '\''; };
    for (std::size_t i = from; i + 2 < s.size(); ++i)
        if (quote(s[i]) && quote(s[i + 1]) && quote(s[i + 2]))
            return i;
    return std::string_view::npos;
}

std::string_view text_of(const antlr4::Token& token, std::string_view script) {
    return script.substr(token.getStartIndex(), token.getStopIndex() + 1 - token.getStartIndex());
}

using Word = DirectiveBuilder::Word;

/// `text`, which is at `offset` in the script, as a word.
Word placed_word(std::string_view text, std::size_t offset) {
    Word w;
    for (std::size_t i = 0; i < text.size(); ++i)
        w.add(text[i], offset + i);
    return w;
}

/// What flux's shell splitting makes of a literal (a triple-quoted text) it first quoted
/// with shlex.quote: backslashes still escape a backslash inside the quotes. Nothing for
/// a backslash before a quote or at the end, which escapes a quote shlex.quote added
/// (flux then fails or mangles the value).
std::optional<Word> literal(const Word& in) {
    const std::string_view text = in.text;
    Word out;
    out.placed = in.placed;
    const auto keep = [&](std::size_t i) {
        if (in.placed)
            out.add(text[i], in.at[i]);
        else
            out.text += text[i];
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\') {
            if (i + 1 == text.size() || text[i + 1] == '\'')
                return std::nullopt;
            if (text[i + 1] != '\\')
                keep(i);
            ++i;
        }
        keep(i);
    }
    return out;
}

/// A word part's text as the shell reads it.
void append_part(Word& word, const antlr4::Token& token, std::string_view text) {
    const std::size_t start = token.getStartIndex();
    switch (token.getType()) {
    case DirectivesGrammar::ESCAPED:
        word.add(text[1], start + 1);
        return;
    case DirectivesGrammar::SINGLE_QUOTED:
    case DirectivesGrammar::DOUBLE_QUOTED:
        // A backslash escapes the quote and itself, and is kept before anything else.
        for (std::size_t i = 1; i + 1 < text.size(); ++i) {
            if (text[i] == '\\') {
                if (text[i + 1] != text[0] && text[i + 1] != '\\')
                    word.add('\\', start + i);
                ++i;
            }
            word.add(text[i], start + i);
        }
        return;
    default:
        word.add(placed_word(text, start));
    }
}

} // namespace

void DirectiveBuilder::Word::add(char c, std::size_t where) {
    text += c;
    if (placed)
        at.push_back(static_cast<std::uint32_t>(where));
}

void DirectiveBuilder::Word::add(const Word& more) {
    if (!more.placed)
        return add_unplaced(more.text);
    text += more.text;
    if (placed)
        at.insert(at.end(), more.at.begin(), more.at.end());
}

void DirectiveBuilder::Word::add_unplaced(std::string_view more) {
    text += more;
    placed = false;
    at.clear();
}

std::vector<Directive> DirectiveBuilder::script(DirectivesGrammar::ScriptContext& ctx) {
    const std::size_t errors_before = diags_.error_count();
    for (std::size_t i = 0; i < ctx.lines.size() && diags_.error_count() == errors_before; ++i) {
        DirectivesGrammar::LineContext& l = *ctx.lines[i];
        // The empty text after the last newline is no line.
        if (l.getStart()->getType() == antlr4::Token::EOF && i > 0)
            break;
        const std::size_t begin = l.getStart()->getStartIndex();
        const auto end = script_.find('\n', begin);
        line(l, Where{i + 1, begin,
                      script_.substr(begin, end == std::string_view::npos ? std::string_view::npos
                                                                          : end - begin)});
    }
    return std::move(out_);
}

void DirectiveBuilder::error(Code code, std::size_t line, std::size_t offset, std::size_t length,
                             std::string message) {
    diags_.add(
        code, fmt::format("line {}: {}", line, message),
        Location{{static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(offset + length)},
                 {}});
}

void DirectiveBuilder::line(DirectivesGrammar::LineContext& ctx, const Where& where) {
    if (open_)
        return continued(ctx, where);
    if (ctx.tag == nullptr)
        return other_line(where);
    if (stopped_)
        return error(Code::directive_orphan, where.number, ctx.tag->getStartIndex(), 5,
                     fmt::format("orphan '{}' detected: directives disabled after line {}",
                                 ctx.tag->getText(), stop_line_));
    if (!same_sentinel(ctx, where))
        return;
    const std::size_t offset = ctx.tag->getStopIndex() + 1;
    const std::string_view text = where.text.substr(offset - where.begin);
    if (!text.empty() && paired_triple_quotes(text, where, offset) && ctx.body != nullptr)
        value(*ctx.body, where, offset, text);
}

void DirectiveBuilder::other_line(const Where& where) {
    if (sentinel_.empty() || stopped_ || blank(where.text))
        return;
    std::string_view prefix = prefix_;
    while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t'))
        prefix.remove_suffix(1);
    if (!prefix.empty() && where.text.substr(0, prefix.size()) != prefix) {
        stopped_ = true;
        stop_line_ = where.number - 1;
    }
}

bool DirectiveBuilder::same_sentinel(DirectivesGrammar::LineContext& ctx, const Where& where) {
    const std::size_t length = ctx.tag->getStopIndex() + 1 - where.begin;
    const std::string_view sentinel = where.text.substr(0, length);
    if (sentinel_.empty()) {
        sentinel_ = std::string(sentinel);
        prefix_ = where.text.substr(0, length - 5);
        return true;
    }
    if (sentinel == sentinel_)
        return true;
    error(Code::directive_sentinel, where.number, where.begin, length,
          fmt::format("sentinel changed from '{}' to '{}'", sentinel_, sentinel));
    return false;
}

std::optional<std::string> DirectiveBuilder::paired_triple_quotes(std::string_view value,
                                                                  const Where& where,
                                                                  std::size_t offset) {
    const auto even = [](std::size_t n) { return n > 0 && n % 2 == 0; };
    if (even(count(value, "\"\"\"")) || even(count(value, "'''"))) {
        // Each leftmost run of three quote characters (mixed kinds too) to the last
        // repetition of the same three, as flux's regular expression substitutes them.
        std::string out;
        std::size_t done = 0;
        for (std::size_t at = triple_at(value, 0); at != std::string_view::npos;
             at = triple_at(value, at)) {
            const auto last = value.rfind(value.substr(at, 3));
            if (last < at + 3) {
                ++at;
                continue;
            }
            out += value.substr(done, at - done);
            out += shell_quoted(value.substr(at + 3, last - at - 3));
            done = at = last + 3;
        }
        return out + std::string(value.substr(done));
    }
    // Otherwise three quote characters (of any kinds) may only end the value.
    if (const auto at = triple_at(value, 0);
        at != std::string_view::npos && at + 3 < value.size()) {
        error(Code::directive_quote, where.number, offset + at, 3,
              fmt::format("unclosed triple quote: {}", trimmed(value)));
        return std::nullopt;
    }
    return std::string(value);
}

void DirectiveBuilder::value(DirectivesGrammar::ValueContext& ctx, const Where& where,
                             std::size_t offset, std::string_view text) {
    std::vector<Word> words;
    Word word;
    bool in_word = false;
    const auto flush = [&] {
        if (in_word)
            words.push_back(std::move(word));
        word = {};
        in_word = false;
    };
    for (const antlr4::Token* item : ctx.items) {
        const std::string_view part = text_of(*item, script_);
        if (item->getType() == DirectivesGrammar::BLANK) {
            flush();
        } else if (item->getType() == DirectivesGrammar::PUNCTUATION) {
            flush();
            words.push_back(placed_word(part, item->getStartIndex()));
        } else if (item->getType() == DirectivesGrammar::TRIPLE_QUOTED) {
            const auto text_of_literal =
                literal(placed_word(part.substr(3, part.size() - 6), item->getStartIndex() + 3));
            if (!text_of_literal)
                return literal_error(where.number, item->getStartIndex(), part.size());
            word.add(*text_of_literal);
            in_word = true;
        } else {
            append_part(word, *item, part);
            in_word = true;
        }
    }
    if (ctx.unclosed != nullptr)
        return error(Code::directive_quote, where.number, offset, text.size(),
                     fmt::format("{}: No closing quotation", text));
    if (ctx.backslash != nullptr)
        return error(Code::directive_quote, where.number, ctx.backslash->getStartIndex(), 1,
                     fmt::format("{}: No escaped character", text));
    if (ctx.after != nullptr) {
        const std::size_t at = ctx.open->getStopIndex() - 2;
        return error(Code::directive_quote, where.number, at, 3,
                     fmt::format("unclosed triple quote: {}", trimmed(text)));
    }
    if (ctx.open != nullptr) {
        Open open;
        open.line = where.number;
        open.offset = offset;
        open.value = text;
        const auto first = text.find_first_not_of(" \t");
        open.indent = std::string(text.substr(0, first));
        open.start = std::string(text.substr(open.indent.size()));
        const std::string_view opener = text_of(*ctx.open, script_);
        open.quote = std::string(opener.substr(opener.size() - 3));
        open.join = opener.front() == '#' ? Open::Join::dropped
                    : in_word             ? Open::Join::last_word
                                          : Open::Join::new_word;
        // The word before the quote is kept whole: last_word appends the quoted text to it.
        flush();
        open.words = std::move(words);
        open_ = std::move(open);
        return;
    }
    flush();
    directive(std::move(words), where.number, offset, text);
}

void DirectiveBuilder::continued(DirectivesGrammar::LineContext& ctx, const Where& where) {
    Open& open = *open_;
    if (ctx.tag == nullptr)
        return error(
            Code::directive_quote, where.number, where.begin, where.text.size(),
            fmt::format("unterminated multi-line quote at line {}: `{}'", open.line, open.start));
    const std::size_t offset = ctx.tag->getStopIndex() + 1;
    auto value = paired_triple_quotes(where.text.substr(offset - where.begin), where, offset);
    if (!value || !same_sentinel(ctx, where))
        return;
    // The line as written, unless flux quoted paired triple quotes in it again.
    const bool as_written = *value == where.text.substr(offset - where.begin);
    std::string_view v = *value;
    std::size_t v_offset = offset;
    const bool closes =
        ctx.quoted != nullptr && ctx.quoted->getType() != DirectivesGrammar::LITERAL;
    if (closes)
        v.remove_suffix(3);
    if (v.substr(0, open.indent.size()) == open.indent) {
        v.remove_prefix(open.indent.size());
        v_offset += open.indent.size();
    }
    Word line;
    if (as_written)
        line = placed_word(v, v_offset);
    else
        line.add_unplaced(v);
    open.lines.emplace_back(std::move(line), where.begin + where.text.size());
    if (!closes)
        return;
    Word joined;
    for (std::size_t i = 0; i < open.lines.size(); ++i) {
        if (i > 0)
            joined.add('\n', open.lines[i - 1].second);
        joined.add(open.lines[i].first);
    }
    Open done = std::move(open);
    open_.reset();
    if (shell_quoted(joined.text).find(done.quote) != std::string::npos)
        return error(
            Code::directive_quote, done.line, done.offset, done.value.size(),
            fmt::format("improperly terminated triple quoted string at: `{}'", done.start));
    std::vector<Word> words = std::move(done.words);
    if (done.join != Open::Join::dropped) {
        auto text = literal(joined);
        if (!text)
            return literal_error(done.line, done.offset, done.value.size());
        if (done.join == Open::Join::last_word)
            words.back().add(*text);
        else
            words.push_back(std::move(*text));
    }
    directive(std::move(words), done.line, done.offset, done.value);
}

void DirectiveBuilder::literal_error(std::size_t line, std::size_t offset, std::size_t length) {
    error(Code::directive_quote, line, offset, length,
          "a backslash before a quote or at the end of a triple-quoted value (flux's quoting "
          "of the value makes it escape a quote of its own)");
}

void DirectiveBuilder::directive(std::vector<Word> words, std::size_t number, std::size_t offset,
                                 std::string_view value) {
    if (words.empty())
        return;
    if (words.front().text.empty() || words.front().text[0] != '-')
        return error(Code::directive_unknown, number, offset, value.size(),
                     fmt::format("Unknown directive: {}", value));
    Directive d{number, offset, {}, {}};
    for (Word& w : words) {
        d.arguments.push_back(std::move(w.text));
        d.origins.push_back(std::move(w.at));
    }
    out_.push_back(std::move(d));
}

} // namespace jobspec::syntax
