// Syntax errors, limits and error reporting for shapes.
#include <doctest/doctest.h>

#include <string>

#include "shape_support.hpp"

using test::first_error;
using test::shape_diagnostics;

TEST_CASE("syntax - brackets, braces and quotes") {
    CHECK(first_error("[a;b") == "shape.unclosed-bracket@1");
    CHECK(first_error("a{x") == "shape.unclosed-bracket@2");
    CHECK(first_error("[a/[b;c]") == "shape.unclosed-bracket@1");
    CHECK(first_error("a]") == "shape.unmatched-bracket@2");
    CHECK(first_error("a{x]") == "shape.unmatched-bracket@4");
    CHECK(first_error("n=[1-3") == "shape.unclosed-bracket@3");
    CHECK(first_error(R"(n{a:"b})") == "shape.unclosed-quote@5");
    CHECK(first_error("[]") == "shape.empty-list@1");
    CHECK(first_error("a/[]") == "shape.empty-list@3");
}

TEST_CASE("syntax - misplaced tokens") {
    CHECK(first_error("") == "shape.syntax@1");
    CHECK(first_error("slot=4/") == "shape.syntax@8");
    CHECK(first_error("slot=/node") == "shape.syntax@6");
    CHECK(first_error("a//b") == "shape.syntax@3");
    CHECK(first_error("[a b]") == "shape.syntax@4");
    CHECK(first_error("a;b") == "shape.syntax@2");
    CHECK(first_error("a{b c}") == "shape.syntax@5");
    CHECK(first_error("a{:b}") == "shape.syntax@3");
    CHECK(first_error("-a") == "shape.syntax@1");
    CHECK(first_error("a{b:}") == "shape.syntax@5");
    CHECK(first_error("a=2=3") == "shape.syntax@4");
    CHECK(first_error("a{x}{y}") == "shape.syntax@5");
    CHECK(first_error("a{b:[1,]}") == "shape.syntax@8");
}

TEST_CASE("syntax - messages name what was expected and found") {
    auto r = jobspec::compile_shape("[a b]");
    REQUIRE(r.diagnostics().size() == 1);
    const std::string message = r.diagnostics()[0].message;
    CHECK(message.find("found 'b'") != std::string::npos);
    CHECK(message.find("';'") != std::string::npos);
    CHECK(message.find("']'") != std::string::npos);
    auto eof = jobspec::compile_shape("slot/");
    CHECK(eof.diagnostics()[0].message.find("found end of input") != std::string::npos);
}

TEST_CASE("syntax - characters") {
    CHECK(first_error("a\x01") == "shape.unexpected-character@2");
    CHECK(first_error("a\xff") == "shape.invalid-utf8@2");
    CHECK(first_error("n{a:\"\xc3\x28\"}") == "shape.invalid-utf8@6");
    CHECK(test::shape_json("n{u:\xc3\xa9t\xc3\xa9}") == R"([{"type":"n","count":1,"u":"été"}])");
}

TEST_CASE("syntax - count errors point into the count") {
    CHECK(first_error("slot=3-1/core") == "shape.range-order@6");
    CHECK(first_error("slot=0/core") == "shape.count-not-positive@6");
    CHECK(first_error("slot=-2/core") == "shape.count-not-positive@6");
    CHECK(first_error("core=1-5:0") == "shape.range-operand@6");
    CHECK(first_error("core=1-4:1:*") == "shape.range-operand@6");
    CHECK(first_error("core=1-4:2:^") == "shape.range-min@6");
    CHECK(first_error("core=1-4:2:%") == "shape.range-operator@12");
    CHECK(first_error("core=04") == "shape.leading-zero@6");
    CHECK(first_error("core=9,4") == "shape.idset-order@8");
    CHECK(first_error("core=[]") == "shape.count-empty@6");
    CHECK(first_error("core=4x") == "shape.count-syntax@7");
    CHECK(first_error("core=99999999999999999999") == "limit.integer@6");
    CHECK(first_error("core=[1-3]") == "");
}

TEST_CASE("syntax - every error of a run is reported") {
    const auto all = shape_diagnostics("[a=0;b=3-1/slot;c{count:1}]");
    REQUIRE(all.size() == 4);
    CHECK(all[0] == "shape.count-not-positive@4");
    CHECK(all[1] == "shape.range-order@8");
    CHECK(all[2] == "jobspec.slot-without-with@12");
    CHECK(all[3] == "shape.reserved-key@19");
    CHECK(shape_diagnostics("[a b c d]").size() >= 1);
}

TEST_CASE("limits - depth is checked before the parser recurses") {
    CHECK(first_error(std::string(100000, '[')) == "limit.depth@65");
    std::string slashes;
    for (int i = 0; i < 50000; ++i)
        slashes += "a/";
    slashes += "a";
    CHECK(first_error(slashes) == "limit.depth@130");
    std::string dicts = "n";
    for (int i = 0; i < 70; ++i)
        dicts += "{a:";
    CHECK(first_error(dicts + "1" + std::string(70, '}')) == "limit.depth@194");

    // At the limit exactly: 64 levels are accepted, 65 are not.
    std::string at_limit;
    for (int i = 0; i < 64; ++i)
        at_limit += "a/";
    at_limit += "a";
    CHECK(first_error(at_limit) == "");
    CHECK(first_error(at_limit + "/a") == "limit.depth@130");

    jobspec::ShapeOptions deep;
    deep.limits.max_depth = 200;
    CHECK(first_error(at_limit + "/a", deep) == "");
    deep.limits.max_depth = 1000000; // clamped to the ceiling
    CHECK(first_error(std::string(5000, '['), deep) == "limit.depth@1001");
}

TEST_CASE("limits - input size") {
    jobspec::ShapeOptions small;
    small.limits.max_input_bytes = 8;
    CHECK(first_error("core=128", small) == "");
    CHECK(first_error("core=1024", small) == "limit.input-size@1");
}

TEST_CASE("limits - the diagnostics cap") {
    jobspec::ShapeOptions few;
    few.limits.max_diagnostics = 3;
    std::string many = "[";
    for (int i = 0; i < 20; ++i)
        many += (i ? ";" : "") + std::string("a=0");
    many += "]";
    const auto all = shape_diagnostics(many, few);
    REQUIRE(all.size() == 4);
    CHECK(all.back() == "limit.diagnostics");
}

TEST_CASE("syntax - errors after errors: what parsed is still checked, without cascades") {
    using V = std::vector<std::string>;
    // The range error before the syntax error and the one after are both reported.
    CHECK(shape_diagnostics("slot=3-1/[core;=]") ==
          V{"shape.range-order@6", "shape.syntax@16", "shape.syntax@17"});
    CHECK(shape_diagnostics("[a=0;b=;c=3-1]") ==
          V{"shape.count-not-positive@4", "shape.syntax@8", "shape.range-order@11"});
    CHECK(shape_diagnostics("slot=3-1/core{=}") == V{"shape.range-order@6", "shape.syntax@15"});
    // Structure the error took away is not reported: no empty list, no slot without
    // resources, no missing label.
    CHECK(shape_diagnostics("slot=2/[;]") == V{"shape.syntax@9"});
    CHECK(shape_diagnostics("slot=2/") == V{"shape.syntax@8"});
    CHECK(shape_diagnostics("[slot;slot{a}/core]/x=") == V{"shape.syntax@20"});
    // An empty list found by the AST builder is not also an empty 'with'.
    CHECK(shape_diagnostics("a/[]") == V{"shape.empty-list@3"});
}
