// TokenListStream, the parser's view of tokens lexed up front, and the pool its rule
// contexts come from.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <Exceptions.h>
#include <misc/Interval.h>
#include <rule_context_pool.hpp>

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

TEST_CASE("rule context pool - reuses blocks, keeps a bounded number") {
    jobspec::grammar::RuleContextPool pool;
    void* a = pool.take(200);
    void* b = pool.take(200);
    CHECK(a != b);
    pool.give(a, 200);
    CHECK(pool.take(193) == a); // the same size class: 193 to 208 bytes
    pool.give(a, 200);
    void* other = pool.take(100);
    CHECK(other != a); // another class
    pool.give(other, 100);
    CHECK(pool.take(200) == a);
    CHECK(pool.free_blocks(200) == 0);
    // Past its bound a class returns blocks to the heap.
    std::vector<void*> blocks;
    for (int i = 0; i < 1000; ++i)
        blocks.push_back(pool.take(64));
    for (void* block : blocks)
        pool.give(block, 64);
    CHECK(pool.free_blocks(64) == 256);
    for (int i = 0; i < 300; ++i)
        blocks[static_cast<std::size_t>(i)] = pool.take(64);
    CHECK(pool.free_blocks(64) == 0);
    for (int i = 0; i < 300; ++i)
        pool.give(blocks[static_cast<std::size_t>(i)], 64);
    // Larger than any class: straight to and from the heap.
    void* big = pool.take(1 << 16);
    pool.give(big, 1 << 16);
    CHECK(pool.free_blocks(1 << 16) == 0);
    pool.give(a, 200);
    pool.give(b, 200);
    CHECK(pool.free_blocks(200) == 2);
}
