#include <jobspec/idset.hpp>

#include <doctest/doctest.h>

using jobspec::IdSet;

namespace {

IdSet parse_ok(std::string_view text) {
    auto r = IdSet::parse(text);
    INFO("input: ", text);
    REQUIRE(r.has_value());
    return *r;
}

IdSet::Error parse_error(std::string_view text) {
    auto r = IdSet::parse(text);
    INFO("input: ", text);
    REQUIRE_FALSE(r.has_value());
    return r.error();
}

} // namespace

TEST_CASE("model - idset parse and format") {
    CHECK(parse_ok("").empty());
    CHECK(parse_ok("[]").empty());
    CHECK(parse_ok("0").format() == "0");
    CHECK(parse_ok("1,2,3,5,6,42").format() == "1-3,5-6,42");
    CHECK(parse_ok("[1-3,5-6,42]").format() == "1-3,5-6,42");
    CHECK(parse_ok("1-3,4").format() == "1-4");
    CHECK(parse_ok("3-3").format() == "3");
    CHECK(parse_ok("7,8").format() == "7-8");
}

TEST_CASE("model - idset stores ranges, not ids") {
    const IdSet all = parse_ok("0-4294967295");
    CHECK(all.ranges().size() == 1);
    CHECK(all.count() == 4294967296ULL);
    CHECK(all.contains(0));
    CHECK(all.contains(4294967295ULL));
    CHECK_FALSE(all.contains(4294967296ULL));
    CHECK(all.first() == 0);
    CHECK(all.last() == 4294967295ULL);
}

TEST_CASE("model - idset insert merges overlapping and adjacent ranges") {
    IdSet s;
    s.insert(10, 12);
    s.insert(1, 2);
    s.insert(5);
    CHECK(s.format() == "1-2,5,10-12");
    s.insert(3, 4);
    CHECK(s.format() == "1-5,10-12");
    s.insert(6, 9);
    CHECK(s.ranges().size() == 1);
    CHECK(s.format() == "1-12");
    s.insert(20, 10);
    CHECK(s.format() == "1-12");
    s.insert(0, UINT64_MAX);
    CHECK(s.ranges().size() == 1);
    CHECK(s.count() == UINT64_MAX);
}

TEST_CASE("model - idset errors name the kind and the place") {
    using K = IdSet::ErrorKind;
    auto e = parse_error("3,1");
    CHECK(e.kind == K::order);
    CHECK(e.offset == 2);
    CHECK(parse_error("1,1").kind == K::order);
    CHECK(parse_error("1-3,2").kind == K::order);
    e = parse_error("5-2");
    CHECK(e.kind == K::order);
    CHECK(e.offset == 0);
    CHECK(e.length == 3);
    e = parse_error("1,02");
    CHECK(e.kind == K::leading_zero);
    CHECK(e.offset == 2);
    CHECK(e.length == 2);
    e = parse_error("9223372036854775808");
    CHECK(e.kind == K::overflow);
    CHECK(parse_ok("9223372036854775807").count() == 1);
    CHECK(parse_error("1,").kind == K::syntax);
    CHECK(parse_error(",1").kind == K::syntax);
    CHECK(parse_error("1;2").offset == 1);
    CHECK(parse_error("[1,2").kind == K::syntax);
    CHECK(parse_error("a").kind == K::syntax);
    CHECK(parse_error("-1").kind == K::syntax);
}
