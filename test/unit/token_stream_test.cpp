// TokenListStream: the parser's view of tokens lexed up front.
#include <doctest/doctest.h>

#include <string>

#include <Exceptions.h>
#include <misc/Interval.h>

#include "syntax/token_list_source.hpp"
#include "syntax/token_list_stream.hpp"

using jobspec::syntax::TokenListSource;
using jobspec::syntax::TokenListStream;

namespace {

constexpr std::size_t WORD = 1, SLASH = 2;

/// "ab/c" as WORD SLASH WORD EOF.
TokenListSource lexed(const std::string& text) {
    TokenListSource source("test");
    source.push(WORD, text, 0, 2, 1, 0);
    source.push(SLASH, text, 2, 3, 1, 0);
    source.push(WORD, text, 3, 4, 1, 0);
    source.finish(text, 1, 0);
    return source;
}

} // namespace

TEST_CASE("token stream - lookahead, lookbehind and the end") {
    const std::string text = "ab/c";
    TokenListSource source = lexed(text);
    TokenListStream stream(source);
    CHECK(stream.size() == 4);
    CHECK(stream.LT(-1) == nullptr);
    CHECK(stream.LT(0) == nullptr);
    CHECK(stream.LA(1) == WORD);
    CHECK(stream.LT(1)->getText() == "ab");
    CHECK(stream.LA(3) == WORD);
    CHECK(stream.LA(4) == antlr4::Token::EOF);
    CHECK(stream.LA(40) == antlr4::Token::EOF); // past the end is EOF
    stream.consume();
    stream.consume();
    CHECK(stream.index() == 2);
    CHECK(stream.LT(-1)->getText() == "/");
    CHECK(stream.LT(-2)->getText() == "ab");
    CHECK(stream.LT(-3) == nullptr);
    stream.consume();
    CHECK(stream.LA(1) == antlr4::Token::EOF);
    CHECK_THROWS_AS(stream.consume(), antlr4::IllegalStateException);
    stream.seek(99);
    CHECK(stream.index() == 3); // clamped to EOF
    stream.seek(1);
    CHECK(stream.LT(1)->getStartIndex() == 2);
    CHECK(stream.LT(1)->getTokenIndex() == 1);
    CHECK_THROWS_AS(stream.get(4), antlr4::IndexOutOfBoundsException);
}

TEST_CASE("token stream - text of intervals stops at EOF") {
    const std::string text = "ab/c";
    TokenListSource source = lexed(text);
    TokenListStream stream(source);
    CHECK(stream.getText() == "ab/c");
    CHECK(stream.getText(antlr4::misc::Interval(std::size_t{1}, std::size_t{2})) == "/c");
    CHECK(stream.getText(stream.get(0), stream.get(1)) == "ab/");
    CHECK(stream.getText(nullptr, stream.get(1)).empty());
    CHECK(stream.get(3)->getText() == "<EOF>");
    // The source as a plain TokenSource hands out copies, then EOF forever.
    CHECK(source.nextToken()->getText() == "ab");
    source.nextToken();
    source.nextToken();
    CHECK(source.nextToken()->getType() == antlr4::Token::EOF);
    CHECK(source.nextToken()->getType() == antlr4::Token::EOF);
}

TEST_CASE("token stream - reset reads another source from its start") {
    const std::string text = "ab/c";
    TokenListSource first = lexed(text);
    TokenListStream stream(first);
    stream.consume();
    TokenListSource empty("empty");
    empty.finish("", 1, 0);
    stream.reset(empty);
    CHECK(stream.index() == 0);
    CHECK(stream.size() == 1);
    CHECK(stream.LA(1) == antlr4::Token::EOF);
    CHECK(stream.LT(-1) == nullptr);
}
