// Every edge a codec or lexer has, tested on both sides: the last value accepted and the
// first refused (dev/mutate.py plants off-by-one bugs at each of them).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <jobspec/constraint.hpp>
#include <jobspec/count.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/suggest.hpp>
#include <jobspec/text.hpp>

#include "model/decoders.hpp"
#include "support/json_string.hpp"
#include "support/numbers.hpp"
#include "support/utf8.hpp"

using jobspec::Hostlist;
using jobspec::IdSet;

namespace {

/// The first error of compiling a shape as "code@column" (column from 1, in bytes), or "".
std::string shape_error(std::string_view shape) {
    for (const auto& d : jobspec::compile_shape(shape).diagnostics())
        if (d.severity == jobspec::Severity::error)
            return std::string(d.code_name()) + "@" + std::to_string(d.location.range.begin + 1);
    return "";
}

/// The first diagnostic of a failed parse; fails the test when the parse succeeded.
template <class T>
jobspec::Diagnostic first_problem(const jobspec::Result<T>& result) {
    REQUIRE_FALSE(result.ok());
    REQUIRE_FALSE(result.diagnostics().empty());
    return *result.diagnostics().begin();
}

/// The label of a shape's first slot below its first vertex ("node{..}/slot{LABEL}/core").
std::string label_of(std::string_view shape) {
    auto r = jobspec::compile_shape(shape);
    REQUIRE_MESSAGE(r.ok(), shape);
    const auto& top = r.value().front();
    const auto& slot = top.is_slot() ? top : top.with.front();
    return std::string(slot.label().value_or("(none)"));
}

std::string unescaped(std::string_view body) {
    auto r = jobspec::support::unescape_json(body);
    return r ? *r : "error: " + r.error().message;
}

std::string bytes(std::initializer_list<int> list) {
    std::string s;
    for (const int b : list)
        s += static_cast<char>(b);
    return s;
}

std::string count_text(std::string_view text) {
    auto c = jobspec::model::decode_count(text);
    return c ? c->format() : "error";
}

std::string idset_text(std::string_view text) {
    auto s = jobspec::model::decode_idset(text);
    return s ? s->format() : "error";
}

std::string hostlist_text(std::string_view text) {
    auto h = jobspec::model::decode_hostlist(text);
    return h ? h->encode() : "error";
}

std::string dependency_error(std::string_view uri, bool allow_unknown = false) {
    jobspec::DependencyOptions options;
    options.allow_unknown_scheme = allow_unknown;
    for (const auto& d : jobspec::parse_dependency(uri, options).diagnostics())
        if (d.severity == jobspec::Severity::error)
            return std::string(d.code_name()) + "@" + std::to_string(d.location.range.begin + 1);
    return "";
}

} // namespace

TEST_CASE("boundaries - JSON string escapes in shapes, hex digits and surrogates") {
    CHECK(unescaped(R"(\u00ff\u00FF\u00af)") == "\u00ff\u00ff\u00af");
    CHECK(unescaped(R"(\u0046\u0066)") == "Ff");
    CHECK(unescaped(R"(\u0800)") == bytes({0xE0, 0xA0, 0x80}));
    CHECK(unescaped(R"(\u07ff)") == bytes({0xDF, 0xBF}));
    // Surrogates: every high one pairs with every low one, DC00 to DFFF.
    CHECK(unescaped(R"(\ud800\udc00)") == bytes({0xF0, 0x90, 0x80, 0x80}));
    CHECK(unescaped(R"(\udbff\udfff)") == bytes({0xF4, 0x8F, 0xBF, 0xBF}));
    CHECK(unescaped(R"(\ud83d\ude00)") == "\xF0\x9F\x98\x80");
    CHECK(unescaped(R"(\udc00)") == "error: a low surrogate must follow a high surrogate");
    CHECK(unescaped(R"(\udfff)") == "error: a low surrogate must follow a high surrogate");
    CHECK(unescaped(R"(\ud800)") == "error: a high surrogate must be followed by a low surrogate");
    CHECK(unescaped(R"(\ud800\ue000)") ==
          "error: a high surrogate must be followed by a low surrogate");
    CHECK(unescaped(R"(\ud800\udbff)") ==
          "error: a high surrogate must be followed by a low surrogate");
    CHECK(unescaped(R"(\u00g0)") == "error: '\\u' needs four hex digits");
    CHECK(unescaped(R"(\u00)") == "error: '\\u' needs four hex digits");
    // Through a shape: the label is the decoded string.
    CHECK(label_of(R"(slot{"a\u00ffb\u00FF"}/core)") == "a\u00ffb\u00ff");
    CHECK(shape_error(R"(slot{"a\udc00"}/core)") == "shape.bad-escape@8");
    CHECK(shape_error(R"(node/slot{"\x"}/core)") == "shape.bad-escape@12");
}

TEST_CASE("boundaries - JSON strings written: controls, space, DEL") {
    using jobspec::support::json_quoted;
    std::string all;
    for (int c = 0; c < 0x20; ++c)
        all += static_cast<char>(c);
    CHECK(json_quoted(all) == R"("\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n)"
                              R"(\u000b\f\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015)"
                              R"(\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f")");
    CHECK(json_quoted(" ~\x7f") == R"(" ~\u007f")");
    // C1 controls and the bidirectional formatting characters, at each end of their ranges.
    CHECK(json_quoted("~\u0080\u009f\u00a0") == "\"~\\u0080\\u009f\u00a0\"");
    CHECK(json_quoted("\u061b\u061c\u200d\u200e\u200f\u2010") ==
          "\"\u061b\\u061c\u200d\\u200e\\u200f\u2010\"");
    CHECK(json_quoted("\u2029\u202a\u202e\u202f\u2065\u2066\u2069\u206a") ==
          "\"\u2029\\u202a\\u202e\u202f\u2065\\u2066\\u2069\u206a\"");
    CHECK(json_quoted("a\xff"
                      "b\xc3") == R"("a\ufffdb\ufffd")");
    CHECK(json_quoted("\"\\/") == R"("\"\\/")");
    CHECK(json_quoted("\xc3\xa9") == "\"\xc3\xa9\"");
}

TEST_CASE("boundaries - text shown on a terminal: C0, DEL, C1, bidi, bad bytes, widths") {
    using jobspec::display_width;
    using jobspec::visible_text;
    CHECK(visible_text("a\tb ~") == "a\tb ~");
    CHECK(visible_text(std::string("\0\x01\x1f", 3)) == R"(\x00\x01\x1f)");
    CHECK(visible_text("a\x7f") == R"(a\x7f)");
    CHECK(visible_text("\u0080\u009f\u00a0") == "<U+0080><U+009F>\u00a0");
    CHECK(visible_text("\u2029\u202a\u202e\u202f") == "\u2029<U+202A><U+202E>\u202f");
    CHECK(visible_text("\u2065\u2066\u2069\u206a") == "\u2065<U+2066><U+2069>\u206a");
    CHECK(visible_text("\u061c\u200e\u200f") == "<U+061C><U+200E><U+200F>");
    CHECK(visible_text("\xff"
                       "a\xc3") == R"(\xffa\xc3)");
    CHECK(visible_text("\u00e9\U0001F600") == "\u00e9\U0001F600");
    CHECK(display_width("a\tb") == 3);
    CHECK(display_width("a\x7f") == 5);
    CHECK(display_width("\u4e2d\u6587") == 4);
    CHECK(display_width("e\u0301") == 1);
    CHECK(display_width("\u202e") == 8);
    CHECK(jobspec::to_valid_utf8("a\xff"
                                 "b\xc3\xa9\xc3") == "a\ufffdb\u00e9\ufffd");
    CHECK(jobspec::to_valid_utf8("\xed\xa0\x80") == "\ufffd\ufffd\ufffd");
}

TEST_CASE("boundaries - UTF-8 lead bytes, surrogates and the last code point") {
    using jobspec::find_invalid_utf8;
    using jobspec::support::utf8_sequence_length;
    const auto npos = std::string_view::npos;
    CHECK(find_invalid_utf8(bytes({0xC2, 0x80})) == npos);
    CHECK(find_invalid_utf8(bytes({0xDF, 0xBF})) == npos);
    CHECK(find_invalid_utf8(bytes({'a', 0xC0, 0x80})) == 1);
    CHECK(find_invalid_utf8(bytes({0xC1, 0xBF})) == 0);
    CHECK(find_invalid_utf8(bytes({0xE0, 0xA0, 0x80})) == npos);
    CHECK(find_invalid_utf8(bytes({0xE0, 0x9F, 0xBF})) == 0);
    CHECK(find_invalid_utf8(bytes({0xED, 0x9F, 0xBF})) == npos); // U+D7FF
    CHECK(find_invalid_utf8(bytes({0xED, 0xA0, 0x80})) == 0);    // U+D800
    CHECK(find_invalid_utf8(bytes({0xED, 0xBF, 0xBF})) == 0);    // U+DFFF
    CHECK(find_invalid_utf8(bytes({0xEE, 0x80, 0x80})) == npos); // U+E000
    CHECK(find_invalid_utf8(bytes({0xF0, 0x90, 0x80, 0x80})) == npos);
    CHECK(find_invalid_utf8(bytes({0xF0, 0x8F, 0xBF, 0xBF})) == 0);
    CHECK(find_invalid_utf8(bytes({0xF4, 0x8F, 0xBF, 0xBF})) == npos); // U+10FFFF
    CHECK(find_invalid_utf8(bytes({0xF4, 0x90, 0x80, 0x80})) == 0);    // U+110000
    CHECK(find_invalid_utf8(bytes({0xF5, 0x80, 0x80, 0x80})) == 0);
    CHECK(find_invalid_utf8(bytes({0xE2, 0x82})) == 0);
    CHECK(utf8_sequence_length(bytes({0x7F}), 0) == 1);
    CHECK(utf8_sequence_length(bytes({0x80}), 0) == 0);
    std::string out;
    for (const std::uint32_t cp : {0x7FU, 0x80U, 0x7FFU, 0x800U, 0xFFFFU, 0x10000U, 0x10FFFFU})
        jobspec::support::append_utf8(out, cp);
    CHECK(out == bytes({0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xEF, 0xBF, 0xBF, 0xF0,
                        0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF}));
}

TEST_CASE("boundaries - every control character, in every lexer") {
    for (int c = 0; c < 0x20; ++c) {
        const std::string ch(1, static_cast<char>(c));
        CAPTURE(c);
        // In a quoted string every control character is an error; outside it, tab,
        // newline and carriage return separate tokens.
        CHECK(shape_error("slot{\"a" + ch + "\"}/core") == "shape.unexpected-character@8");
        if (c != '\t' && c != '\n' && c != '\r') {
            CHECK(shape_error("node" + ch + "/core") == "shape.unexpected-character@5");
            CHECK(jobspec::parse_constraint_query("a" + ch).diagnostics().has_errors());
        }
        CHECK(dependency_error("afterok:1" + ch) == "dependency.syntax@10");
    }
    CHECK(shape_error("node\x7f/core") == "shape.unexpected-character@5");
    CHECK(shape_error("slot{\"a\x7f\"}/core") == "shape.unexpected-character@8");
    CHECK(dependency_error("afterok:1\x7f") == "dependency.syntax@10");
    CHECK(jobspec::parse_constraint_query("a\x7f").diagnostics().has_errors());
    CHECK(jobspec::parse_constraint_query("a \t\n\rb").ok());
    CHECK(shape_error("node/\x7e") == "");
}

TEST_CASE("boundaries - shape positions after a newline") {
    CHECK(shape_error("node/\n  core=0") == "shape.count-not-positive@14");
    auto r = jobspec::compile_shape("node/\n  core=0");
    REQUIRE(r.diagnostics().size() == 1);
    CHECK(r.diagnostics().begin()->location.range.begin == 13);
}

TEST_CASE("boundaries - counts at the edges of RFC 45's rules") {
    CHECK(count_text("3-3") == "3-3");
    CHECK(count_text("3-2") == "error");
    CHECK(count_text("1-8:2:*") == "1-8:2:*");
    CHECK(count_text("1-8:1:*") == "error");
    CHECK(count_text("2+:2:^") == "2+:2:^");
    CHECK(count_text("2-16:2:^") == "2-16:2:^");
    CHECK(count_text("1+:2:^") == "error");
    CHECK(count_text("1-5:2") == "1-5:2");
    CHECK(count_text("1-5:1") == "1-5");
    CHECK(count_text("1-5:1:+") == "1-5");
    CHECK(count_text("3x") == "error");
    CHECK(count_text("1,0") == "error");
    CHECK(count_text("0,1") == "error");
    CHECK(count_text("9223372036854775807") == "9223372036854775807");
    CHECK(count_text("9223372036854775808") == "error");
    CHECK(count_text("1-9223372036854775807") == "1-9223372036854775807");
    CHECK(jobspec::model::decode_count("0").error().kind == jobspec::model::CountError::not_positive);
}

TEST_CASE("boundaries - idsets at their edges") {
    CHECK(idset_text("0") == "0");
    CHECK(idset_text("3-3") == "3");
    CHECK(idset_text("3-2") == "error");
    CHECK(idset_text("1,1") == "error");
    CHECK(idset_text("1-3,3") == "error");
    CHECK(idset_text("1-3,4") == "1-4");
    CHECK(idset_text("9223372036854775807") == "9223372036854775807");
    CHECK(idset_text("9223372036854775808") == "error");
    IdSet s;
    s.insert(1, 3);
    s.insert(4);
    CHECK(s.format() == "1-4");
    CHECK(s.ranges().size() == 1);
    const IdSet a = *jobspec::model::decode_idset("1-5,8-9");
    CHECK(a.contains(1));
    CHECK(a.contains(8));
    CHECK_FALSE(a.contains(7));
    CHECK(a.includes(*jobspec::model::decode_idset("5,9")));
    CHECK(a.includes(a));
    CHECK_FALSE(a.includes(*jobspec::model::decode_idset("9-10")));
    CHECK(a.intersected(*jobspec::model::decode_idset("5-8")).format() == "5,8");
    CHECK(a.without(*jobspec::model::decode_idset("1-2,8")).format() == "3-5,9");
    CHECK(a.without(*jobspec::model::decode_idset("5")).format() == "1-4,8-9");
    CHECK(first_problem(jobspec::IdSet::parse("3,1")).code_name() == "idset.order");
    CHECK(first_problem(jobspec::IdSet::parse("1,x")).code_name() == "idset.syntax");
}

TEST_CASE("boundaries - hostlist names, numbers and widths") {
    CHECK(hostlist_text("a b") == "error");
    CHECK(hostlist_text(std::string("a\x7f")) == "error");
    CHECK(hostlist_text("a!~") == "a!~");
    CHECK(hostlist_text("n[3-3]") == "n3");
    CHECK(hostlist_text("n[3-2]") == "error");
    CHECK(hostlist_text("node[08-09],node10") == "node[08-10]");
    // Host numbers go to 2^64-1; above, they are not numbers: such names stay whole and
    // never merge.
    CHECK(hostlist_text("n9223372036854775807,n9223372036854775808") ==
          "n[9223372036854775807-9223372036854775808]");
    CHECK(hostlist_text("n18446744073709551614,n18446744073709551615") ==
          "n[18446744073709551614-18446744073709551615]");
    CHECK(hostlist_text("n18446744073709551616,n18446744073709551617") ==
          "n18446744073709551616,n18446744073709551617");
    CHECK(hostlist_text("n[18446744073709551616]") == "error");
    // A width holds up to 255 digits.
    const std::string zeros254(254, '0');
    CHECK(hostlist_text("n[" + zeros254 + "1]") == "n" + zeros254 + "1");
    CHECK(hostlist_text("n[0" + zeros254 + "1]") == "error");
    // Lookups reach the last host of a run, and padding ends where numbers fill it.
    const Hostlist h = *jobspec::model::decode_hostlist("n[08-11],m[0999999999999999999-1000000000000000001]");
    CHECK(h.find("n11") == 3);
    CHECK(h.find("n08") == 0);
    CHECK_FALSE(h.find("n12"));
    CHECK(h.find("m1000000000000000001") == 6);
    CHECK(h.nth(6) == "m1000000000000000001");
    CHECK(first_problem(jobspec::Hostlist::parse("a]")).location.range.end == 2);
    CHECK(first_problem(jobspec::Hostlist::parse("n[1-")).code_name() == "hostlist.syntax");
}

TEST_CASE("boundaries - hostlist sets: padding, plain names") {
    const Hostlist a = *jobspec::model::decode_hostlist("node[09-10],x,y");
    const Hostlist b = *jobspec::model::decode_hostlist("node9,node10,y,z");
    // node09 is not node9; node10 is node10 whatever the width it was written with.
    CHECK(a.intersected(b).encode() == "node10,y");
    CHECK(a.without(b).encode() == "node09,x");
    CHECK(a.united(b).encode() == "node9,node[09-10],x,y,z");
    // 19 digits of padding: 10^18 has 19 digits of its own, so it is node10^18 either way.
    const Hostlist c = *jobspec::model::decode_hostlist("m[0999999999999999999-1000000000000000000]");
    const Hostlist d = *jobspec::model::decode_hostlist("m1000000000000000000");
    CHECK(c.intersected(d).encode() == "m1000000000000000000");
}

TEST_CASE("boundaries - FLUIDs at 0, 2^64-1 and one past") {
    using jobspec::FluidEncoding;
    CHECK(jobspec::model::decode_fluid("18446744073709551615")->id == UINT64_MAX);
    CHECK(jobspec::model::decode_fluid("0xffffffffffffffff")->id == UINT64_MAX);
    CHECK(jobspec::model::decode_fluid("18446744073709551616").error().kind ==
          jobspec::model::FluidError::Kind::overflow);
    CHECK(jobspec::model::decode_fluid("0x10000000000000000").error().kind ==
          jobspec::model::FluidError::Kind::overflow);
    CHECK(jobspec::model::decode_fluid("\xc6\x92jpXCZedGfVQ")->id == UINT64_MAX);
    // Seven emoji hold 2^64-1; an eighth is too many, whatever it is.
    const std::string max_emoji = jobspec::encode_fluid(UINT64_MAX, FluidEncoding::emoji);
    CHECK(max_emoji.size() == 28);
    CHECK(jobspec::model::decode_fluid(max_emoji)->id == UINT64_MAX);
    CHECK(jobspec::model::decode_fluid("\xf0\x9f\x98\x83" + max_emoji).error().kind ==
          jobspec::model::FluidError::Kind::format);
    // Words: index 1625 is the last of a FLUID's alphabet, 1626 ("ego") only ends groups.
    CHECK(jobspec::model::decode_fluid("amen-academy-academy--academy-academy-academy")->id == 1625);
    CHECK(jobspec::model::decode_fluid("ego-academy-academy--academy-academy-academy").error().kind ==
          jobspec::model::FluidError::Kind::unknown_word);
    CHECK(jobspec::encode_fluid(1, FluidEncoding::words) ==
          "acrobat-academy-academy--academy-academy-academy");
    CHECK(jobspec::model::decode_fluid("job.0000.0000.0000.0001")->encoding == FluidEncoding::kvs);
    // Bytes in messages: printable ASCII as is, DEL and the rest by value.
    CHECK(jobspec::model::decode_fluid("12\x7f").error().message ==
          "not a FLUID in dec encoding: byte 0x7f is not a decimal digit");
    CHECK(jobspec::model::decode_fluid("12~").error().message ==
          "not a FLUID in dec encoding: '~' is not a decimal digit");
}

TEST_CASE("boundaries - source ranges: unknown stays unknown when shifted") {
    CHECK_FALSE(jobspec::SourceRange{}.shifted(5).known());
    CHECK(jobspec::SourceRange{2, 4}.shifted(3) == jobspec::SourceRange{5, 7});
    CHECK(jobspec::SourceRange{2, 4}.shifted(0) == jobspec::SourceRange{2, 4});
}

TEST_CASE("boundaries - numbers, suggestions") {
    CHECK(jobspec::support::parse_non_negative(".5") == 0.5);
    CHECK(jobspec::support::parse_non_negative("0") == 0.0);
    CHECK_FALSE(jobspec::support::parse_non_negative("1e999"));
    CHECK_FALSE(jobspec::support::parse_non_negative("-1"));
    CHECK(dependency_error("begin-time:.5") == "");
    CHECK(dependency_error("begin-time:1e999") == "dependency.begin-time@12");
    using jobspec::closest;
    const std::vector<std::string_view> words = {"abcdexyz", "abxy", "afterok"};
    CHECK(closest("abcdefgh", words) == std::nullopt); // 3 edits
    CHECK(closest("abcdefyz", words) == "abcdexyz");   // 2 edits of 8
    CHECK(closest("abcd", words) == std::nullopt);     // 2 edits of 4: half the word
    CHECK(closest("abcy", words) == "abxy");           // 1 edit of 4
    CHECK(closest("aftrok", words) == "afterok");
}

TEST_CASE("boundaries - dependency URIs: scheme characters, escapes at the end") {
    CHECK(dependency_error("a.b+c-d_e:v", true) == "");
    CHECK(dependency_error("1a:v", true) == "dependency.syntax@1");
    CHECK(dependency_error("a,b:v", true) == "dependency.syntax@2");
    // The value is kept as written (as flux-core keeps it); options are decoded.
    auto d = jobspec::parse_dependency("string:a%2fb%2F%41?type=%6Fut&scope=user");
    REQUIRE(d.ok());
    CHECK(d.value().value == "a%2fb%2F%41");
    jobspec::DependencyOptions unknown;
    unknown.allow_unknown_scheme = true;
    d = jobspec::parse_dependency("x-y:v?a=x%e2%82%ac", unknown);
    REQUIRE(d.ok());
    CHECK(d.value().options.front().value == "x\xe2\x82\xac");
    CHECK(dependency_error("string:x?type=out&scope=user%4") == "dependency.percent-escape@29");
    CHECK(dependency_error("x-y:v?a=%4", true) == "dependency.percent-escape@9");
}
