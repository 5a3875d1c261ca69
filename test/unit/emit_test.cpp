#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/shape.hpp>

#include <array>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

#include "support/json_string.hpp"

TEST_CASE("emit - JSON text") {
    const auto v = boost::json::parse(
        R"({"a":[1,-2,2.5,3.0,1e300],"b":"q\"\\\n\u0001é","c":{},"d":[],"e":null,"f":true})");
    CHECK(jobspec::to_json_text(v) ==
          "{\"a\":[1,-2,2.5,3.0,1e+300],\"b\":\"q\\\"\\\\\\n\\u0001é\",\"c\":{},\"d\":[],"
          "\"e\":null,\"f\":true}\n");
    CHECK(jobspec::to_json_text(boost::json::parse(R"({"a":[1,{"b":2}],"c":{}})"), true) ==
          "{\n  \"a\": [\n    1,\n    {\n      \"b\": 2\n    }\n  ],\n  \"c\": {}\n}\n");
}

TEST_CASE("emit - a resource list's compact text escapes what a quoted type may hold") {
    auto r = jobspec::compile_shape(R"(slot/"a\"b\\c é"=2)");
    REQUIRE(r.ok());
    const std::string want = R"([{"type":"slot","count":1,"label":"default","with":)"
                             R"([{"type":"a\"b\\c é","count":2}]}])"
                             "\n";
    CHECK(jobspec::to_json_text(r.value()) == want);
    CHECK(jobspec::to_json_text(jobspec::to_json_value(r.value())) == want);
}

TEST_CASE("emit - a resource list's JSON value lives in the memory it is given") {
    auto r = jobspec::compile_shape("slot=2{s}/node{-x}/[core=4+;memory=8{unit:GB}]");
    REQUIRE(r.ok());
    std::array<unsigned char, 256> buffer{};
    boost::json::monotonic_resource memory(buffer.data(), buffer.size());
    const boost::json::storage_ptr storage(&memory);
    const auto value = jobspec::to_json_value(r.value(), jobspec::CountStyle::dict, storage);
    CHECK(value == jobspec::to_json_value(r.value()));
    CHECK(value.storage() == storage);
    CHECK(value.at(0).at("with").at(0).at("with").at(0).storage() == storage);
}

TEST_CASE("emit - YAML text quotes what YAML would read as another type") {
    const auto v = boost::json::parse(
        R"({"s":["true","yes","4","1.5","-1","null","","4,9,16","GB","4GB-node","+"],)"
        R"("n":[4,2.5,null,false],"e":[],"o":{}})");
    CHECK(jobspec::to_yaml_text(v) == R"(s:
  - "true"
  - "yes"
  - "4"
  - "1.5"
  - "-1"
  - "null"
  - ""
  - 4,9,16
  - GB
  - 4GB-node
  - +
"n":
  - 4
  - 2.5
  - null
  - false
e: []
o: {}
)");
}

TEST_CASE("emit - diagnostics with carets") {
    auto r = jobspec::compile_shape("slot=3-1/core");
    CHECK(jobspec::render_text(r.diagnostics(), "slot=3-1/core") ==
          "error[shape.range-order]: range maximum 1 is below its minimum 3\n"
          "  slot=3-1/core\n"
          "       ^~~\n");
    auto w = jobspec::compile_shape("n{ssd}");
    CHECK(jobspec::render_text(w.diagnostics(), "n{ssd}") ==
          "warning[jobspec.unknown-vertex-key]: 'ssd' is not an RFC 14 vertex key; it is kept "
          "as written\n"
          "  n{ssd}\n"
          "    ^~~\n");
}

TEST_CASE("emit - carets count code points and keep tabs") {
    const std::string text = "n{label:\"\xc3\xa9t\xc3\xa9\",\tcount:2}";
    auto r = jobspec::compile_shape(text);
    CHECK(jobspec::render_text(r.diagnostics(), text) ==
          "error[shape.reserved-key]: 'count' cannot be set in braces\n"
          "  n{label:\"\xc3\xa9t\xc3\xa9\",\tcount:2}\n"
          "                \t^~~~~\n"
          "  help: write the vertex as type=count\n");
}

TEST_CASE("emit - long lines are windowed around the range") {
    const std::string text = "[" + std::string(300, 'a') + ";b=0]";
    auto r = jobspec::compile_shape(text);
    const std::string out = jobspec::render_text(r.diagnostics(), text);
    CHECK(out.find("  ...aaa") != std::string::npos);
    CHECK(out.size() < 400);
    CHECK(out.find("^\n") != std::string::npos);
}

TEST_CASE("emit - named and multi-line sources show line and column") {
    const std::string text = "[a;\n b=0]";
    auto r = jobspec::compile_shape(text);
    CHECK(jobspec::render_text(r.diagnostics(), text, {false, "req.shape"}) ==
          "error[shape.count-not-positive]: count must be at least 1\n"
          "  --> req.shape:2:4\n"
          "   b=0]\n"
          "     ^\n");
}

TEST_CASE("emit - a two-line source shows where without a name; a CRLF line ends before CR") {
    const std::string text = "b=0\r\n";
    auto r = jobspec::compile_shape(text);
    CHECK(jobspec::render_text(r.diagnostics(), text) ==
          "error[shape.count-not-positive]: count must be at least 1\n"
          "  --> <input>:1:3\n"
          "  b=0\n"
          "    ^\n");
}

TEST_CASE("emit - a range half a window from the line start is shown without cutting") {
    const auto rendered = [](std::size_t a) {
        const std::string text = "[" + std::string(a, 'a') + ";b=0]";
        return jobspec::render_text(jobspec::compile_shape(text).diagnostics(), text);
    };
    CHECK(rendered(46).find("  [aaa") != std::string::npos); // the '0' at byte 50
    CHECK(rendered(47).find("  ...aaa") != std::string::npos);
}

TEST_CASE("emit - diagnostics as JSON") {
    auto r = jobspec::compile_shape("slot=3-1/core");
    CHECK(jobspec::render_json(r.diagnostics(), "slot=3-1/core") ==
          R"([{"severity":"error","code":"shape.range-order",)"
          R"("message":"range maximum 1 is below its minimum 3","offset":5,"length":3,)"
          R"("line":1,"column":6}])"
          "\n");
}

TEST_CASE("emit - colour") {
    auto r = jobspec::compile_shape("a=0");
    const std::string out = jobspec::render_text(r.diagnostics(), "a=0", {true, {}});
    CHECK(out.find("\x1b[1;31merror\x1b[0m") == 0);
}

TEST_CASE("emit - minimal JSON escapes leave DEL, C1 and bidi as they are, as json.dumps does") {
    std::string safe, minimal;
    const std::string text = "a\x7f\xc2\x85\xe2\x80\xae\n\xff";
    jobspec::support::append_json_quoted(safe, text);
    jobspec::support::append_json_quoted(minimal, text, jobspec::support::JsonEscapes::minimal);
    CHECK(safe == R"("a\u007f\u0085\u202e\n\ufffd")");
    CHECK(minimal == "\"a\x7f\xc2\x85\xe2\x80\xae\\n\\ufffd\"");
}
