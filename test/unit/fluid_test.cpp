// FLUIDs: every RFC 19 encoding, detection, round trips and errors.
#include <jobspec/fluid.hpp>

#include <doctest/doctest.h>

#include "model/decoders.hpp"
#include <random>
#include <string>

using jobspec::encode_fluid;
using jobspec::FluidEncoding;
using Kind = jobspec::model::FluidError::Kind;

namespace {

constexpr FluidEncoding all[] = {FluidEncoding::dec,  FluidEncoding::hex, FluidEncoding::dothex,
                                 FluidEncoding::kvs,  FluidEncoding::f58, FluidEncoding::words,
                                 FluidEncoding::emoji};

std::uint64_t decoded(std::string_view text) {
    auto r = jobspec::model::decode_fluid(text);
    INFO("input: ", text);
    REQUIRE(r.has_value());
    return r->id;
}

Kind error_kind(std::string_view text) {
    auto r = jobspec::model::decode_fluid(text);
    INFO("input: ", text);
    REQUIRE_FALSE(r.has_value());
    return r.error().kind;
}

} // namespace

TEST_CASE("fluid - the test vectors") {
    const std::uint64_t id = 6731191091817518ULL;
    CHECK(encode_fluid(id, FluidEncoding::dec) == "6731191091817518");
    CHECK(encode_fluid(id, FluidEncoding::hex) == "0x17e9fb8df16c2e");
    CHECK(encode_fluid(id, FluidEncoding::dothex) == "0017.e9fb.8df1.6c2e");
    CHECK(encode_fluid(id, FluidEncoding::kvs) == "job.0017.e9fb.8df1.6c2e");
    CHECK(encode_fluid(id, FluidEncoding::f58) == "ƒuZZybuNNy");
    CHECK(encode_fluid(id, FluidEncoding::words) == "reform-remote-galileo--heart-package-academy");
    CHECK(encode_fluid(0, FluidEncoding::f58) == "ƒ1");
    CHECK(encode_fluid(0, FluidEncoding::words) ==
          "academy-academy-academy--academy-academy-academy");
    CHECK(encode_fluid(0, FluidEncoding::emoji) == "😃");
    CHECK(encode_fluid(65535, FluidEncoding::f58) == "ƒLUv");
    CHECK(encode_fluid(65535, FluidEncoding::words) ==
          "nevada-archive-academy--academy-academy-academy");
    for (const auto* text :
         {"6731191091817518", "0x17e9fb8df16c2e", "0017.e9fb.8df1.6c2e", "job.0017.e9fb.8df1.6c2e",
          "ƒuZZybuNNy", "fuZZybuNNy", "reform-remote-galileo--heart-package-academy",
          "REFORM-remote_Galileo  heart package--academy"})
        CHECK(decoded(text) == id);
}

TEST_CASE("fluid - f58plain, and encoding names in any case (flux-core's)") {
    CHECK(encode_fluid(6731191091817518ULL, FluidEncoding::f58plain) == "fuZZybuNNy");
    CHECK(jobspec::model::decode_fluid("fuZZybuNNy")->encoding == FluidEncoding::f58);
    CHECK(jobspec::encoding_from_name("F58Plain") == FluidEncoding::f58plain);
    CHECK(jobspec::encoding_from_name("DEC") == FluidEncoding::dec);
    CHECK(jobspec::encoding_name(FluidEncoding::f58plain) == "f58plain");
    CHECK_FALSE(jobspec::encoding_from_name("f58plainx"));
    CHECK_FALSE(jobspec::encoding_from_name(""));
}

TEST_CASE("fluid - the RFC's own examples decode") {
    CHECK(decoded("ƒZemgA8Bzf") > 0);
    CHECK(decoded("ƒ278oEf7zGf") > 0);
    CHECK(decoded("0xedaf97d000000") == decoded("000e.daf9.7d00.0000"));
    CHECK(decoded("random-idea-yoyo--sugar-printer-academy") > 0);
    for (const auto* emoji : {"🚹💂🙌😳💱🏃", "😄😹🎇📥🏧🙉🔞", "🚹💂🈳💰🎩🏃"})
        CHECK(encode_fluid(decoded(emoji), FluidEncoding::emoji) == emoji);
}

TEST_CASE("fluid - detection follows RFC 19's order") {
    CHECK(jobspec::detect_encoding("1.2") == FluidEncoding::dothex);
    CHECK(jobspec::detect_encoding("job.1") == FluidEncoding::kvs);
    CHECK(jobspec::detect_encoding("a-b") == FluidEncoding::words);
    CHECK(jobspec::detect_encoding("f-x") == FluidEncoding::words);
    CHECK(jobspec::detect_encoding("ƒx") == FluidEncoding::f58);
    CHECK(jobspec::detect_encoding("fx") == FluidEncoding::f58);
    CHECK(jobspec::detect_encoding("😃") == FluidEncoding::emoji);
    CHECK(jobspec::detect_encoding("0x1") == FluidEncoding::hex);
    CHECK(jobspec::detect_encoding("12") == FluidEncoding::dec);
    CHECK(jobspec::detect_encoding("  0x1 ") == FluidEncoding::hex);
    CHECK(decoded(" \t1234\n") == 1234);
}

TEST_CASE("fluid - every encoding round-trips") {
    std::vector<std::uint64_t> values = {0,          1,
                                         57,         58,
                                         575,        576,
                                         1625,       1626,
                                         UINT32_MAX, UINT32_MAX + 1ULL,
                                         1ULL << 63, UINT64_MAX - 1,
                                         UINT64_MAX};
    std::mt19937_64 rng(19);
    for (int i = 0; i < 10000; ++i)
        values.push_back(rng() >> (rng() % 64));
    for (const auto value : values) {
        for (const auto encoding : all) {
            const std::string text = encode_fluid(value, encoding);
            const auto back = jobspec::model::decode_fluid(text);
            if (!back || back->id != value || back->encoding != encoding) {
                FAIL_CHECK("round trip of " << value << " via " << jobspec::encoding_name(encoding)
                                            << " (" << text << ")");
                return;
            }
        }
    }
    CHECK(values.size() == 10013);
}

TEST_CASE("fluid - errors say what is wrong, where") {
    CHECK(error_kind("") == Kind::empty);
    CHECK(error_kind("   ") == Kind::empty);
    CHECK(error_kind("12a") == Kind::character);
    CHECK(error_kind("18446744073709551616") == Kind::overflow);
    CHECK(decoded("18446744073709551615") == UINT64_MAX);
    CHECK(error_kind("0x") == Kind::character);
    CHECK(error_kind("0x1g") == Kind::character);
    CHECK(error_kind("0x10000000000000000") == Kind::overflow);
    CHECK(error_kind("0017.e9fb.8df1") == Kind::format);
    CHECK(error_kind("0017.e9fb.8df1.6c2z") == Kind::character);
    CHECK(error_kind("job.17.e9fb.8df1.6c2e") == Kind::format);
    CHECK(error_kind("ƒ") == Kind::character);
    CHECK(error_kind("ƒ0") == Kind::character);
    CHECK(error_kind("fl") == Kind::character);
    CHECK(error_kind("ƒjpXCZedGfVR") == Kind::overflow);
    CHECK(decoded("ƒjpXCZedGfVQ") == UINT64_MAX);
    CHECK(error_kind("hungry-hippo-white-elephant") == Kind::unknown_word);
    CHECK(error_kind("academy-academy-academy") == Kind::word_count);
    CHECK(error_kind("academy-academy-academy--academy-academy-academy-academy") ==
          Kind::word_count);
    CHECK(error_kind("academy-academy-academy--academy-academy-yes") == Kind::unknown_word);
    CHECK(error_kind("verbal-verbal-verbal--academy-academy-academy") == Kind::overflow);
    CHECK(error_kind("😃x") == Kind::character);
    CHECK(error_kind("\xf0\x9f\x98") == Kind::character);
    CHECK(error_kind("🎌🎌🎌🎌🎌🎌🎌") == Kind::overflow);
    CHECK(error_kind("😃😃😃😃😃😃😃😃") == Kind::format);
    auto e = jobspec::model::decode_fluid("  ƒuZZ0ybuNNy").error();
    CHECK(e.encoding == FluidEncoding::f58);
    CHECK(e.offset == 7);
    CHECK(e.length == 1);
    CHECK(e.message.find("f58") != std::string::npos);
    auto w = jobspec::model::decode_fluid("reform-remoter-galileo").error();
    CHECK(w.offset == 7);
    CHECK(w.length == 7);
}

TEST_CASE("fluid - parse_fluid reports fluid.* codes") {
    CHECK(jobspec::parse_fluid("ƒuZZybuNNy").value().id == 6731191091817518ULL);
    auto bad = jobspec::parse_fluid("hungry-hippo");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.diagnostics()[0].code == jobspec::Code::fluid_unknown_word);
    CHECK(jobspec::encoding_from_name("words") == FluidEncoding::words);
    CHECK_FALSE(jobspec::encoding_from_name("base64"));
}
