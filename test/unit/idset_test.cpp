#include <jobspec/idset.hpp>

#include <doctest/doctest.h>

#include "model/decoders.hpp"
#include <vector>

using jobspec::IdSet;

namespace {

IdSet parse_ok(std::string_view text) {
    auto r = jobspec::model::decode_idset(text);
    INFO("input: ", text);
    REQUIRE(r.has_value());
    return *r;
}

jobspec::model::IdSetCodecError parse_error(std::string_view text) {
    auto r = jobspec::model::decode_idset(text);
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
    using K = jobspec::model::IdSetError;
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

TEST_CASE("model - idset algebra") {
    const IdSet a = parse_ok("0-10,20-30,40");
    const IdSet b = parse_ok("5-25,40-50");
    CHECK(a.united(b).format() == "0-30,40-50");
    CHECK(a.intersected(b).format() == "5-10,20-25,40");
    CHECK(a.without(b).format() == "0-4,26-30");
    CHECK(b.without(a).format() == "11-19,41-50");
    CHECK(a.intersects(b));
    CHECK_FALSE(parse_ok("1-3").intersects(parse_ok("4-6")));
    CHECK(a.includes(parse_ok("1-3,40")));
    CHECK_FALSE(a.includes(parse_ok("1-3,41")));
    CHECK(a.includes(IdSet{}));
    CHECK(IdSet{}.united(a) == a);
    CHECK(a.intersected(IdSet{}).empty());
    CHECK(a.without(IdSet{}) == a);
    CHECK(parse_ok("0-4294967295").without(parse_ok("1-4294967294")).format() == "0,4294967295");
    IdSet e = parse_ok("0-10");
    e.erase(3, 5);
    CHECK(e.format() == "0-2,6-10");
}

TEST_CASE("model - idset iteration and positions") {
    const IdSet s = parse_ok("1-3,7,10-11");
    std::vector<std::uint64_t> ids(s.begin(), s.end());
    CHECK(ids == std::vector<std::uint64_t>{1, 2, 3, 7, 10, 11});
    CHECK(IdSet{}.begin() == IdSet{}.end());
    CHECK(s.next(3) == 7u);
    CHECK(s.next(0) == 1u);
    CHECK_FALSE(s.next(11));
    CHECK(s.position(7) == 3u);
    CHECK(s.position(11) == 5u);
    CHECK_FALSE(s.position(5));
    CHECK(IdSet::range(5, 3).empty());
}

TEST_CASE("model - idset of 10^6 ids, every other one") {
    IdSet s;
    for (std::uint64_t i = 0; i < 2000000; i += 2)
        s.insert(i);
    CHECK(s.ranges().size() == 1000000);
    const std::string text = s.format();
    auto back = jobspec::model::decode_idset(text);
    REQUIRE(back.has_value());
    CHECK(*back == s);
}
