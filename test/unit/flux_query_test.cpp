// flux-core's lexing and grouping on the ConstraintQuery grammar: the reading
// (syntax::parse_flux_query) and its door for drop-ins (fold_flux_query).
#include <jobspec/flux_query.hpp>

#include "syntax/flux_query_parser.hpp"

#include <doctest/doctest.h>

namespace {

using Kind = jobspec::FluxQueryError::Kind;

/// The query folded through the door into one string, each and/or in parentheses: what
/// flux groups.
std::string grouping(std::string_view query) {
    struct Text final : jobspec::FluxQueryFold {
        std::vector<std::string> stack;
        void term(const jobspec::FluxQueryTerm& t) override { stack.push_back(t.text); }
        void negate() override { stack.back() = "not " + stack.back(); }
        void combine(bool conjunction) override {
            REQUIRE(stack.size() >= 2);
            std::string right = std::move(stack.back());
            stack.pop_back();
            stack.back() = "(" + stack.back() + (conjunction ? " & " : " | ") + right + ")";
        }
    } fold;
    if (jobspec::fold_flux_query(query, fold))
        return "error";
    REQUIRE(fold.stack.size() == 1);
    return fold.stack.front();
}

jobspec::syntax::FluxQuery failed(std::string_view query) {
    auto q = jobspec::syntax::parse_flux_query(query);
    REQUIRE(q.error.has_value());
    CHECK(q.steps.empty());
    CHECK_FALSE(q.diagnostics.empty());
    return q;
}

} // namespace

TEST_CASE("flux grouping: a term after an expression takes all of it as its left side") {
    CHECK(grouping("a|b c") == "((a | b) & c)");
    CHECK(grouping("a b|c") == "((a & b) | c)");
    CHECK(grouping("a|b&c") == "(a | (b & c))");
    CHECK(grouping("a b & c | d & e") == "(((a & b) & c) | (d & e))");
    CHECK(grouping("a | b & c d") == "((a | (b & c)) & d)");
    CHECK(grouping("(a b)(c d)") == "((a & b) & (c & d))");
}

TEST_CASE("flux grouping: not and - after an operand bind to it, nesting to the right") {
    CHECK(grouping("a not b|c") == "((a & not b) | c)");
    CHECK(grouping("a b not c") == "(a & (b & not c))");
    CHECK(grouping("b -c -d") == "(b & (not c & not d))");
    CHECK(grouping("not a not b") == "not (a & not b)");
    CHECK(grouping("not a b") == "(not a & b)");
    CHECK(grouping("not a | b") == "(not a | b)");
    CHECK(grouping("not -a") == "not not a");
}

TEST_CASE("flux lexing: terms, quotes, keywords and joined operators") {
    CHECK(grouping("host:'foo bar'") == "host:foo bar");
    CHECK(grouping("x: not a") == "not x:a");    // the pending 'x:' waits past `not`
    CHECK(grouping("'' a ''") == "a");           // empty quotes make no token
    CHECK(grouping("'a:' b") == "a:b");          // a quoted part ending in ':' waits too
    CHECK(grouping("a:'b:' c") == "(a:b: & c)"); // a joined term waits for nothing
    CHECK(grouping("not-x") == "not not x");     // `not\b`, then '-'
    CHECK(grouping("andy orb notc") == "((andy & orb) & notc)");
    CHECK(grouping("a&&b||c") == "((a & b) | c)");
    CHECK(grouping("time:11:00am") == "time:11:00am");
    CHECK(grouping("é:x") == "é:x");

    const auto q = jobspec::syntax::parse_flux_query("é x:'y z'");
    REQUIRE(q.terms.size() == 2);
    CHECK(q.terms[1].text == "x:y z");
    CHECK(q.terms[1].position == 5); // code points, the quoted part's start
}

TEST_CASE("flux's errors: kind, what it names, where, and the terms read before it") {
    auto q = failed("(a");
    CHECK(q.error->kind == Kind::unclosed_parenthesis);
    CHECK(q.error->position == 0);
    CHECK(q.terms_before_error == 1);
    CHECK(failed("((a)").error->position == 1); // the last '(' read, as flux says

    q = failed("a)");
    CHECK(q.error->kind == Kind::mismatched_parentheses);
    CHECK(q.diagnostics[0].code == jobspec::Code::query_syntax);
    CHECK(q.diagnostics[0].location.range.begin == 1);

    q = failed("a&&&b");
    CHECK(q.error->kind == Kind::invalid_token);
    CHECK(q.error->text == "&");
    CHECK(q.error->position == 3);
    CHECK(q.terms_before_error == 1);

    q = failed("-(a|b)");
    CHECK(q.error->kind == Kind::invalid_token);
    CHECK(q.error->text == "(");
    CHECK(q.terms_before_error == 0);

    q = failed("a|");
    CHECK(q.error->kind == Kind::end_of_input);
    CHECK(q.error->text == "a|");

    q = failed("a 'b");
    CHECK(q.error->kind == Kind::unclosed_quote);
    CHECK(q.error->text == "'");
    CHECK(q.error->position == 3);
    CHECK(q.terms.size() == 2);
    CHECK(q.terms_before_error == 1); // flux meets the quote before it converts 'b'
    CHECK(q.diagnostics[0].code == jobspec::Code::query_unclosed_quote);

    q = failed("a host:");
    CHECK(q.error->kind == Kind::missing_argument);
    CHECK(q.error->text == "host:");

    q = failed("a\xC2\xA0"
               "b"); // U+00A0: Python's \s, which flux neither skips nor reads
    CHECK(q.error->kind == Kind::illegal_character);
    CHECK(q.error->position == 1);
    // The ends of Python's U+2000-U+200A run (flux-core 0.88: "Illegal character");
    // U+200B, a zero-width space, is not \s: part of the term.
    for (const char* space : {"\u2000", "\u200A"}) {
        q = failed(std::string("a") + space + "b");
        CHECK(q.error->kind == Kind::illegal_character);
        CHECK(q.error->position == 1);
    }
    CHECK(grouping("a\u200Bb") == "a\u200Bb");

    q = failed("a \xFF");
    CHECK(q.error->kind == Kind::illegal_character);
    CHECK(q.diagnostics[0].message == "text is not valid UTF-8");

    // A syntax error before a lexer error is the one flux meets.
    CHECK(failed("a ) 'b").error->kind == Kind::mismatched_parentheses);
}

TEST_CASE("flux reading stays within the limits") {
    jobspec::Limits limits;
    limits.max_depth = 8;
    for (std::string query : {std::string(9, '(') + "a" + std::string(9, ')'),
                              [] {
                                  std::string s = "a";
                                  for (int i = 0; i < 9; ++i)
                                      s += " -b";
                                  return s;
                              }(),
                              [] {
                                  std::string s;
                                  for (int i = 0; i < 9; ++i)
                                      s += "not ";
                                  return s + "a";
                              }()}) {
        const auto q = jobspec::syntax::parse_flux_query(query, limits);
        REQUIRE(q.error.has_value());
        CHECK(q.error->kind == Kind::limit);
        CHECK(q.diagnostics[0].code == jobspec::Code::limit_depth);
    }
    // Juxtaposed terms and operators do not nest.
    std::string flat;
    for (int i = 0; i < 200; ++i)
        flat += "-a b | ";
    flat += "c";
    CHECK_FALSE(jobspec::syntax::parse_flux_query(flat, limits).error.has_value());

    limits.max_input_bytes = 4;
    CHECK(jobspec::syntax::parse_flux_query("abcde", limits).error->kind == Kind::limit);
}
