#include <jobspec/count.hpp>

#include "model/decoders.hpp"
#include <doctest/doctest.h>

using jobspec::Count;
using jobspec::CountRange;
using jobspec::RangeOperator;

namespace {

Count parse_ok(std::string_view text) {
    auto r = jobspec::model::decode_count(text);
    INFO("input: ", text);
    REQUIRE(r.has_value());
    return *r;
}

jobspec::model::CountCodecError parse_error(std::string_view text) {
    auto r = jobspec::model::decode_count(text);
    INFO("input: ", text);
    REQUIRE_FALSE(r.has_value());
    return r.error();
}

} // namespace

TEST_CASE("model - count integers") {
    CHECK(parse_ok("4").fixed() == 4);
    CHECK(parse_ok("[4]").fixed() == 4);
    CHECK(parse_ok("9223372036854775807").fixed() == 9223372036854775807ULL);
}

TEST_CASE("model - count idsets need a comma and hold no zero") {
    const Count c = parse_ok("4,9,16,25");
    REQUIRE(c.is_idset());
    CHECK(c.format() == "4,9,16,25");
    CHECK(parse_ok("[1-3,5]").format() == "1-3,5");
    CHECK(parse_ok("1,2,3").format() == "1-3");
}

TEST_CASE("model - count ranges in every RFC 45 form") {
    auto range = [](std::string_view text) {
        const Count c = parse_ok(text);
        REQUIRE(c.is_range());
        return c.range();
    };
    CHECK(range("3-30") == CountRange{3, 30, RangeOperator::add, 1, false});
    CHECK(range("2+") == CountRange{2, std::nullopt, RangeOperator::add, 1, false});
    CHECK(range("2+:2") == CountRange{2, std::nullopt, RangeOperator::add, 2, true});
    CHECK(range("2+:2:*") == CountRange{2, std::nullopt, RangeOperator::multiply, 2, true});
    CHECK(range("1-5:2") == CountRange{1, 5, RangeOperator::add, 2, true});
    CHECK(range("1-4:2:*") == CountRange{1, 4, RangeOperator::multiply, 2, true});
    CHECK(range("2-64:2:^") == CountRange{2, 64, RangeOperator::power, 2, true});
    CHECK(range("1-5:2:+") == CountRange{1, 5, RangeOperator::add, 2, true});
    CHECK(range("[1-4:2:*]") == CountRange{1, 4, RangeOperator::multiply, 2, true});
    CHECK(range("[100+]").min == 100);
    CHECK(range("1-1").max == 1u);
}

TEST_CASE("model - count ranges format to their shortest RFC 45 form") {
    CHECK(parse_ok("3-30").format() == "3-30");
    CHECK(parse_ok("1-4:1:+").format() == "1-4");
    CHECK(parse_ok("1-5:2:+").format() == "1-5:2");
    CHECK(parse_ok("2+:2:*").format() == "2+:2:*");
    CHECK(parse_ok("2+:1").format() == "2+");
}

TEST_CASE("model - count errors follow RFC 14's rules") {
    using K = jobspec::model::CountError;
    CHECK(parse_error("0").kind == K::not_positive);
    CHECK(parse_error("-1").kind == K::not_positive);
    CHECK(parse_error("0-3").kind == K::not_positive);
    CHECK(parse_error("0,1").kind == K::not_positive);
    auto e = parse_error("3-1");
    CHECK(e.kind == K::range_order);
    CHECK(e.offset == 0);
    CHECK(e.length == 3);
    CHECK(e.message == "range maximum 1 is below its minimum 3");
    CHECK(parse_error("1-5:0").kind == K::operand);
    CHECK(parse_error("1-5:1:*").kind == K::operand);
    CHECK(parse_error("2-5:1:^").kind == K::operand);
    CHECK(parse_error("1-4:2:^").kind == K::power_minimum);
    e = parse_error("1-4:2:/");
    CHECK(e.kind == K::unknown_operator);
    CHECK(e.offset == 6);
    CHECK(parse_error("1-4:2:**").kind == K::syntax);
    CHECK(parse_error("04").kind == K::leading_zero);
    CHECK(parse_error("1-05").kind == K::leading_zero);
    CHECK(parse_error("9223372036854775808").kind == K::overflow);
    CHECK(parse_error("1-99999999999999999999").kind == K::overflow);
    CHECK(parse_error("").kind == K::empty);
    CHECK(parse_error("[]").kind == K::empty);
    CHECK(parse_error("9,4").kind == K::idset_order);
    e = parse_error("4x");
    CHECK(e.kind == K::syntax);
    CHECK(e.offset == 1);
    CHECK(parse_error("1-").kind == K::syntax);
    CHECK(parse_error("1:2").kind == K::syntax);
    CHECK(parse_error("[1-3").kind == K::syntax);
}

TEST_CASE("model - count check applies to ranges built from fields") {
    using K = jobspec::model::CountError;
    CHECK_FALSE(jobspec::model::check_count_range(CountRange{2, 8, RangeOperator::power, 2, true}));
    CHECK(jobspec::model::check_count_range(CountRange{0, std::nullopt, RangeOperator::add, 1, false})->kind ==
          K::not_positive);
    CHECK(jobspec::model::check_count_range(CountRange{5, 4, RangeOperator::add, 1, false})->kind == K::range_order);
}

TEST_CASE("model - a count's least value and the greatest it allows up to n") {
    const auto count = [](std::string_view text) { return *jobspec::model::decode_count(text); };
    CHECK(count("4").least() == 4);
    CHECK(count("4").greatest_at_most(9) == 4u);
    CHECK_FALSE(count("4").greatest_at_most(3).has_value());
    CHECK(count("2,5,9").least() == 2);
    CHECK(count("2,5,9").greatest_at_most(8) == 5u);
    CHECK(count("2-7,9").greatest_at_most(8) == 7u);
    CHECK(count("3+").greatest_at_most(100) == 100u);
    CHECK(count("3-30:4").greatest_at_most(100) == 27u);  // 3, 7, ..., 27
    CHECK(count("2-32:2:*").greatest_at_most(20) == 16u);
    CHECK(count("2+:2:^").greatest_at_most(300) == 256u); // 2, 4, 16, 256
    CHECK(count("2+:2:^").greatest_at_most(UINT64_MAX) == 4294967296u);
    CHECK_FALSE(count("5-9").greatest_at_most(4).has_value());
}

TEST_CASE("model - Count::parse reads a count and says where it is wrong") {
    const auto ok = Count::parse("[2-16:2:*]");
    REQUIRE(ok.ok());
    CHECK(ok.value().format() == "2-16:2:*");
    const auto bad = Count::parse("1-4:2:/");
    REQUIRE_FALSE(bad.ok());
    REQUIRE(bad.diagnostics().size() == 1);
    const auto& d = *bad.diagnostics().begin();
    CHECK(d.code_name() == "shape.range-operator");
    CHECK(d.location.range.begin == 6);
    CHECK(d.location.range.end == 7);
    CHECK(Count::parse("99999999999999999999").diagnostics().begin()->code_name() ==
          "limit.integer");
    CHECK_FALSE(Count::parse("").ok());
}

TEST_CASE("model - Count::describe says what a count accepts") {
    const auto said = [](std::string_view text) { return Count::parse(text).value().describe(); };
    CHECK(said("4") == "exactly 4");
    CHECK(said("4,9,16") == "one of 4,9,16");
    CHECK(said("2+") == "at least 2");
    CHECK(said("3-30") == "from 3 to 30");
    CHECK(said("2-11:3") == "from 2 to 11, in steps of 3: 2, 5, 8, 11");
    CHECK(said("2-4:3") == "from 2 to 4, in steps of 3: 2");
    CHECK(said("2+:3") == "at least 2, in steps of 3: 2, 5, 8, 11, ...");
    CHECK(said("1-4:2:*") == "from 1 to 4, each 2 times the last: 1, 2, 4");
    CHECK(said("2-16:2:^") == "from 2 to 16, each the last to the power 2: 2, 4, 16");
    // The values stop where the next one would not fit in 64 bits.
    CHECK(said("4294967296+:2:^") ==
          "at least 4294967296, each the last to the power 2: 4294967296");
}
