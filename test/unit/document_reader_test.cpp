// Reading YAML and JSON into the document tree: types, ranges, duplicates, aliases, limits.
#include <doctest/doctest.h>

#include <string>

#include <jobspec/document_check.hpp>

#include "syntax/document_tree.hpp"

using jobspec::Diagnostics;
using jobspec::Limits;
using jobspec::syntax::DocNode;
using Kind = DocNode::Kind;

namespace {

std::optional<DocNode> yaml(std::string_view text, Diagnostics& d, const Limits& limits = {}) {
    return jobspec::syntax::read_yaml(text, limits, d);
}

std::optional<DocNode> json(std::string_view text, Diagnostics& d, const Limits& limits = {}) {
    return jobspec::syntax::read_json(text, limits, d);
}

/// The code of the first diagnostic, or "".
std::string first_code(const Diagnostics& d) {
    return d.empty() ? std::string() : std::string(d[0].code_name());
}

} // namespace

TEST_CASE("read - YAML scalars follow the YAML 1.2 core schema") {
    Diagnostics d;
    auto doc = yaml("a: 1\nb: -2\nc: 3600.\nd: 1.5e3\ne: true\nf: False\ng: ~\nh: null\n"
                    "i: \"4\"\nj: '5'\nk: yes\nl: 0x1F\nm: 0o17\nn: 1.5\no: !!str 7\n"
                    "p: 4,9,16\nq: 18446744073709551615\nr:\n",
                    d);
    REQUIRE(doc);
    const auto kind = [&](std::string_view key) { return doc->find(key)->value.kind(); };
    CHECK(kind("a") == Kind::integer);
    CHECK(doc->find("b")->value.integer() == -2);
    CHECK(kind("c") == Kind::real);
    CHECK(doc->find("d")->value.real() == 1500.0);
    CHECK(kind("e") == Kind::boolean);
    CHECK(doc->find("f")->value.boolean() == false);
    CHECK(kind("g") == Kind::null);
    CHECK(kind("h") == Kind::null);
    CHECK(kind("i") == Kind::string);
    CHECK(kind("j") == Kind::string);
    CHECK(kind("k") == Kind::string);
    CHECK(doc->find("l")->value.integer() == 31);
    CHECK(doc->find("m")->value.integer() == 15);
    CHECK(kind("n") == Kind::real);
    CHECK(doc->find("o")->value.text() == "7");
    CHECK(doc->find("p")->value.text() == "4,9,16");
    CHECK(doc->find("q")->value.uinteger() == 18446744073709551615ULL);
    CHECK(kind("r") == Kind::null);
}

TEST_CASE("read - YAML ranges point at the source") {
    Diagnostics d;
    const std::string text =
        "version: 1\nlist:\n  - \"quoted\"\n  - plain\n  - 'it''s'\n  - \"a\\\"b\"\n";
    auto doc = yaml(text, d);
    REQUIRE(doc);
    const auto& version = *doc->find("version");
    CHECK(text.substr(version.key_range.begin, version.key_range.size()) == "version");
    CHECK(text.substr(version.value.range.begin, version.value.range.size()) == "1");
    const auto& list = doc->find("list")->value.elements();
    CHECK(text.substr(list[0].range.begin, list[0].range.size()) == "\"quoted\"");
    CHECK(text.substr(list[1].range.begin, list[1].range.size()) == "plain");
    // A doubled quote inside single quotes, an escaped one inside double quotes: not the end.
    CHECK(text.substr(list[2].range.begin, list[2].range.size()) == "'it''s'");
    CHECK(text.substr(list[3].range.begin, list[3].range.size()) == "\"a\\\"b\"");
}

TEST_CASE("read - JSON keeps ranges of keys, strings and numbers") {
    Diagnostics d;
    const std::string text = R"({"count": 42, "name": "x", "esc": "a\nb", "n": null})";
    auto doc = json(text, d);
    REQUIRE(doc);
    const auto& count = *doc->find("count");
    CHECK(text.substr(count.key_range.begin, count.key_range.size()) == "\"count\"");
    CHECK(text.substr(count.value.range.begin, count.value.range.size()) == "42");
    const auto& name = doc->find("name")->value;
    CHECK(text.substr(name.range.begin, name.range.size()) == "\"x\"");
    CHECK(doc->find("esc")->value.text() == "a\nb");
    CHECK_FALSE(doc->find("n")->value.range.known());
}

TEST_CASE("read - JSON numbers are read exactly, and the document must end") {
    Diagnostics d;
    // Boost.JSON 1.81 alone reads both one ulp off.
    auto doc = json(R"({"a": 9.777777777777779e+30, "b": 9777777777777777777777777777770})", d);
    REQUIRE(doc);
    CHECK(doc->find("a")->value.real() == 9.777777777777779e+30);
    CHECK(doc->find("b")->value.real() == 9.777777777777778e+30);
    Diagnostics extra;
    CHECK_FALSE(json(R"({"a": 1} x)", extra));
    REQUIRE(first_code(extra) == "jobspec.json-syntax");
    CHECK(extra[0].location.range.begin == 9);
}

TEST_CASE("read - numbers JSON cannot write are errors, not infinities") {
    for (const char* text : {"a: .inf\n", "a: -.Inf\n", "a: .NaN\n"}) {
        Diagnostics d;
        CHECK_FALSE(yaml(text, d));
        CHECK(first_code(d) == "jobspec.yaml-not-json");
    }
    Diagnostics big_yaml;
    CHECK_FALSE(yaml("a: 1e999\n", big_yaml));
    CHECK(first_code(big_yaml) == "limit.integer");
    Diagnostics big_json;
    CHECK_FALSE(json(R"({"a": 1e400})", big_json));
    REQUIRE(first_code(big_json) == "limit.integer");
    CHECK(big_json[0].location.pointer == "/a");
    CHECK(big_json[0].location.range.begin == 6);
    Diagnostics largest;
    CHECK(json(R"({"a": 1.7976931348623157e308, "b": 1e-400})", largest));
}

TEST_CASE("read - duplicate keys keep the first value") {
    Diagnostics d;
    auto doc = yaml("a: 1\nb: 2\na: 3\n", d);
    CHECK_FALSE(doc);
    REQUIRE(d.size() == 1);
    CHECK(first_code(d) == "jobspec.duplicate-key");
    CHECK(d[0].location.pointer == "/a");
    CHECK(d[0].location.range.begin == 10);

    Diagnostics big;
    std::string many = "{";
    for (int i = 0; i < 1000; ++i)
        many += "\"k" + std::to_string(i) + "\": 1, ";
    many += "\"k500\": 2}";
    CHECK_FALSE(json(many, big));
    CHECK(first_code(big) == "jobspec.duplicate-key");
    CHECK(big[0].location.pointer == "/k500");
}

TEST_CASE("read - YAML aliases expand within a budget and never loop") {
    Diagnostics d;
    auto doc = yaml("a: &x {b: 1}\nc: *x\n", d);
    REQUIRE(doc);
    CHECK(doc->find("c")->value.find("b")->value.integer() == 1);

    Diagnostics cycle;
    CHECK_FALSE(yaml("a: &x [1, *x]\n", cycle));
    CHECK(first_code(cycle) == "jobspec.yaml-alias");

    Limits small;
    small.max_alias_nodes = 5;
    Diagnostics budget;
    CHECK_FALSE(yaml("a: &x [1, 2, 3]\nb: [*x, *x]\n", budget, small));
    CHECK(first_code(budget) == "limit.aliases");
}

TEST_CASE("read - depth limits hold at the limit and past it") {
    const auto nested = [](int n) { return "a: " + std::string(n, '[') + std::string(n, ']'); };
    Limits limits;
    limits.max_depth = 10;
    Diagnostics ok;
    CHECK(yaml(nested(9), ok, limits)); // the mapping is the tenth level
    Diagnostics deep;
    CHECK_FALSE(yaml(nested(10), deep, limits));
    CHECK(first_code(deep) == "limit.depth");
    Diagnostics very_deep; // yaml-cpp's own guard, far past ours
    limits.max_depth = 1000;
    CHECK_FALSE(yaml(nested(100000), very_deep, limits));
    CHECK(first_code(very_deep) == "limit.depth");

    Diagnostics json_ok;
    limits.max_depth = 10;
    CHECK(json(std::string(10, '[') + std::string(10, ']'), json_ok, limits));
    Diagnostics json_deep;
    CHECK_FALSE(json(std::string(11, '[') + std::string(11, ']'), json_deep, limits));
    CHECK(first_code(json_deep) == "limit.depth");
    Diagnostics json_very_deep;
    CHECK_FALSE(json(std::string(1000000, '['), json_very_deep, limits));
}

TEST_CASE("read - syntax errors say where") {
    Diagnostics d;
    CHECK_FALSE(json("{\"a\": [1, 2,]}", d));
    CHECK(first_code(d) == "jobspec.json-syntax");
    CHECK(d[0].location.range.begin == 12);

    Diagnostics y;
    CHECK_FALSE(yaml("a: [1, 2\n", y));
    CHECK(first_code(y) == "jobspec.yaml-syntax");

    Diagnostics docs;
    CHECK_FALSE(yaml("a: 1\n---\nb: 2\n", docs));
    CHECK(first_code(docs) == "jobspec.yaml-documents");

    Diagnostics empty;
    CHECK_FALSE(yaml("", empty));
    CHECK(first_code(empty) == "jobspec.yaml-syntax");

    Diagnostics size;
    Limits tiny;
    tiny.max_input_bytes = 4;
    CHECK_FALSE(json("[1, 2]", size, tiny));
    CHECK(first_code(size) == "limit.input-size");
}

TEST_CASE("document_keys: every key of a jobspec, where it and its value are") {
    const std::string text = "version: 1\nresources:\n  - type: \"node\"\n    count: 2+\n"
                             "    with: [{type: core, count: 1}]\n  - type:\n";
    const auto keys = jobspec::document_keys(text);
    std::vector<std::string> names;
    for (const auto& k : keys)
        names.push_back(k.key);
    CHECK(names == std::vector<std::string>{"version", "resources", "type", "count", "with",
                                            "type", "count", "type"});
    const auto at = [&](jobspec::SourceRange r) { return text.substr(r.begin, r.size()); };
    CHECK(at(keys[0].key_range) == "version");
    CHECK(keys[0].value == "1");
    CHECK(at(keys[2].value_range) == "\"node\"");
    CHECK(keys[2].value == "node");
    CHECK(at(keys[3].value_range) == "2+");
    CHECK_FALSE(keys[4].value);
    CHECK(at(keys[5].key_range) == "type");
    CHECK(keys[5].value == "core");
    // A null is placed where the next token starts (here the end of the text).
    CHECK(keys[7].null);
    CHECK_FALSE(keys[7].value);
    CHECK(keys[7].value_range.begin >= keys[7].key_range.end);

    const std::string json_text = R"({"resources": [{"type": "gpu", "count": 4}]})";
    const auto from_json = jobspec::document_keys(json_text);
    REQUIRE(from_json.size() == 3);
    CHECK(json_text.substr(from_json[1].value_range.begin, from_json[1].value_range.size()) ==
          "\"gpu\"");
    CHECK(from_json[2].value == "4");
    // Not a document: no keys.
    CHECK(jobspec::document_keys("a: [").empty());
    CHECK(jobspec::document_keys("a: 1\na: 2\n").empty());
}
