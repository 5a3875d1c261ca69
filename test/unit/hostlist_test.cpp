// Hostlists (RFC 29): every test vector, encoding, lookups and set algebra.
#include <jobspec/hostlist.hpp>

#include <doctest/doctest.h>

#include "model/decoders.hpp"
#include <string>
#include <vector>

using jobspec::Hostlist;

namespace {

Hostlist parse(std::string_view text) {
    auto r = jobspec::model::decode_hostlist(text);
    INFO("input: ", text);
    REQUIRE(r.has_value());
    return *r;
}

std::string expanded(std::string_view text) {
    std::string out;
    for (const auto& host : parse(text).expand())
        out += (out.empty() ? "" : ",") + host;
    return out;
}

jobspec::model::HostlistError error(std::string_view text) {
    auto r = jobspec::model::decode_hostlist(text);
    INFO("input: ", text);
    REQUIRE_FALSE(r.has_value());
    return r.error().kind;
}

} // namespace

TEST_CASE("hostlist - RFC 29 test vectors") {
    CHECK(expanded("") == "");
    CHECK(expanded("foox,fooy,fooz") == "foox,fooy,fooz");
    CHECK(expanded("[1-3,5-6]") == "1,2,3,5,6");
    CHECK(expanded("foo[1-5]") == "foo1,foo2,foo3,foo4,foo5");
    CHECK(expanded("foo[0-4]-eth2") == "foo0-eth2,foo1-eth2,foo2-eth2,foo3-eth2,foo4-eth2");
    CHECK(expanded("foo1,foo1,foo1") == "foo1,foo1,foo1");
    CHECK(expanded("[00-02]") == "00,01,02");
    CHECK(expanded("[00-2]") == "00,01,02");
    CHECK(expanded("foo[1,1,2,1]") == "foo1,foo1,foo2,foo1");
    CHECK(expanded("foo[005,4,11-13]") == "foo005,foo004,foo011,foo012,foo013");
}

TEST_CASE("hostlist - encoding is the shortest form, in order") {
    CHECK(parse("foo1,foo2,foo3,foo7").encode() == "foo[1-3,7]");
    CHECK(parse("foo[0-4]-eth2").encode() == "foo[0-4]-eth2");
    CHECK(parse("foo1,foo1,foo1").encode() == "foo[1,1,1]");
    CHECK(parse("foo[1,1,2,1]").encode() == "foo[1,1-2,1]");
    CHECK(parse("node1").encode() == "node1");
    CHECK(parse("foox,fooy").encode() == "foox,fooy");
    CHECK(parse("[00-2]").encode() == "[00-02]");
    CHECK(parse("n08,n09,n10,n11").encode() == "n[08-11]");
    CHECK(parse("n9,n10").encode() == "n[9-10]");
    CHECK(parse("n8,n09").encode() == "n8,n09");
    CHECK(parse("a,b[1-2],a").encode() == "a,b[1-2],a");
    CHECK(parse("rack1-node[1-3]").encode() == "rack1-node[1-3]");
    CHECK(parse("x[3,2,1]").encode() == "x[3,2,1]");
    // Found by fuzz-resource_set: a single host written with an odd split still groups.
    CHECK(parse("gpu[15-15]0,gpu[0-15]").encode() == "gpu[150,0-15]");
    CHECK(parse(parse("gpu[15-15]0,gpu[0-15]").encode()).encode() == "gpu[150,0-15]");
    // A single host after a run split another way continues it by that run's split
    // (runs as set operations leave them: reading "n1[0-5],n16" joins them at once).
    Hostlist joined;
    joined.append(Hostlist::Run{"n1", "", 0, 5, 0, true});
    joined.append(Hostlist::Run{"n", "", 16, 16, 0, true});
    CHECK(joined.encode() == "n1[0-6]");
    Hostlist apart;
    apart.append(Hostlist::Run{"n", "", 16, 16, 0, true});
    apart.append(Hostlist::Run{"n1", "", 0, 5, 0, true});
    CHECK(apart.encode() == "n16,n1[0-5]");
}

TEST_CASE("hostlist - a large range is one run") {
    const Hostlist h = parse("node[0-99999]");
    CHECK(h.runs().size() == 1);
    CHECK(h.count() == 100000);
    CHECK(h.nth(99999) == "node99999");
    CHECK_FALSE(h.nth(100000));
    CHECK(h.find("node12345") == 12345u);
    CHECK_FALSE(h.find("node100000"));
    CHECK_FALSE(h.find("node012345"));
    CHECK(parse("n[0-9223372036854775807]").count() == 9223372036854775808ULL);
    // Found by fuzz-hostlist: a 19-digit number is still a number when found again.
    const Hostlist top = parse("[9223372036854775807]");
    CHECK(top.find("9223372036854775807") == 0u);
    CHECK(parse(top.encode()).expand() == top.expand());
    CHECK(parse("n9223372036854775806,n9223372036854775807").encode() ==
          "n[9223372036854775806-9223372036854775807]");
    // Numbers go on to 2^64-1 (RFC 29 sets no bound; flux-core keeps 64 bits)...
    CHECK(parse("n9223372036854775808,n9223372036854775809").encode() ==
          "n[9223372036854775808-9223372036854775809]");
    CHECK(parse("n18446744073709551614,n18446744073709551615").encode() ==
          "n[18446744073709551614-18446744073709551615]");
    CHECK(parse("n[18446744073709551613-18446744073709551615]").count() == 3u);
    CHECK(parse("n[1-18446744073709551615]").count() == UINT64_MAX);
    CHECK(parse("n[18446744073709551615]").find("n18446744073709551615") == 0u);
    // ...and past them a name stays whole, not continuing a run.
    CHECK(parse("n18446744073709551615,n18446744073709551616").runs().size() == 2);
    CHECK(parse("n18446744073709551616").runs().front().numbered == false);
    const std::string zeros(254, '0');
    CHECK(parse("n[" + zeros + "1-" + zeros + "3]").find("n" + zeros + "2") == 1u);
}

TEST_CASE("hostlist - append extends runs") {
    Hostlist h;
    for (int i = 0; i < 1000; ++i)
        h.append("node" + std::to_string(i));
    CHECK(h.runs().size() == 1);
    CHECK(h.encode() == "node[0-999]");
    Hostlist eth = parse("foo[0-4]-eth2");
    eth.append("foo5-eth2");
    CHECK(eth.encode() == "foo[0-5]-eth2");
    Hostlist padded = parse("n[005-006]");
    padded.append("n007");
    padded.append("n8");
    CHECK(padded.encode() == "n[005-007],n8");
}

TEST_CASE("hostlist - lookups on repeats and names without numbers") {
    const Hostlist h = parse("b,a[1-3],a2,c");
    CHECK(h.count() == 6);
    CHECK(h.find("a2") == 2u);
    CHECK(h.find("c") == 5u);
    CHECK(h.nth(4) == "a2");
    CHECK_FALSE(h.find("a4"));
}

TEST_CASE("hostlist - sort, unique and set algebra") {
    CHECK(parse("b,a[3,1,2],a1").sorted().encode() == "a[1,1-3],b");
    CHECK(parse("b,a[3,1,2],a1").unique().encode() == "a[1-3],b");
    CHECK(parse("n[09-10]").united(parse("n10,n11")).encode() == "n[09-11]");
    CHECK(parse("n[1-10]").intersected(parse("n[5-15],m1")).encode() == "n[5-10]");
    CHECK(parse("n[1-10],m1").without(parse("n[3-4],m1")).encode() == "n[1-2,5-10]");
    CHECK(parse("foo[0-4]-eth2").intersected(parse("foo3-eth2,foo9-eth2")).encode() == "foo3-eth2");
    CHECK(parse("n[0-99999]").without(parse("n[1-99998]")).encode() == "n[0,99999]");
    CHECK(parse("a,b").united(parse("b,c")).encode() == "a,b,c");
    // Found by fuzz-hostlist: padding of 20 digits or more (10^19 overflowed) lost its zeros.
    const auto padded = parse("n00006437740644681296554-,a0000000000000000000000000000009");
    CHECK(padded.unique().expand() == padded.sorted().expand());
    CHECK(padded.united(parse("m1")).count() == 3);
    CHECK(padded.without(parse("m1")).encode() == padded.sorted().encode());
    CHECK(padded.unique().find("n00006437740644681296554-") == 1);
}

TEST_CASE("hostlist - sorted by the text around the number, then by number") {
    CHECK(parse("n10,n2-ib,n9,n,n10-ib").sorted().expand() ==
          std::vector<std::string>{"n", "n9", "n10", "n2-ib", "n10-ib"});
    CHECK(parse("x[98-100]y,x[1-2]").unique().encode() == "x[1-2],x[98-100]y");
    CHECK(parse("n[1-3]").intersected(parse("n[2-9]-ib,n2")).encode() == "n2");
    CHECK(parse("n[3,1,2],n1").sorted().encode() == "n[1,1-3]");
    CHECK(parse("n[1-4],n[3-6]").sorted().encode() == "n[1-3,3-4,4-6]");
    // Ranges, not names: a range of 2^62 hosts sorts and compares as one.
    const auto huge = parse("f[0-4611686018427387904]x,f[5-7]x");
    CHECK(huge.unique().encode() == "f[0-4611686018427387904]x");
    CHECK(huge.removed(parse("f[1-9]x")).encode() == "f[0,10-4611686018427387904,5-7]x");
    CHECK(huge.excluding(parse("f6x")).encode() == "f[0-5,7-4611686018427387904,5,7]x");
    // At the last number: ranges that reach it sort, count and combine as any other.
    const auto top = parse("t[18446744073709551614-18446744073709551615],t[18446744073709551615]");
    CHECK(top.sorted().encode() ==
          "t[18446744073709551614-18446744073709551615,18446744073709551615]");
    CHECK(top.unique().encode() == "t[18446744073709551614-18446744073709551615]");
    CHECK(top.removed(parse("t18446744073709551615")).encode() ==
          "t[18446744073709551614-18446744073709551615]");
    CHECK(top.excluding(parse("t18446744073709551614")).encode() ==
          "t[18446744073709551615,18446744073709551615]");
    // Set algebra can make the run of all 2^64 numbers: its size saturates.
    const auto all = parse("t[1-18446744073709551615]").united(parse("t0"));
    CHECK(all.encode() == "t[0-18446744073709551615]");
    CHECK(all.runs().front().size() == UINT64_MAX);
    CHECK(all.count() == UINT64_MAX);
    CHECK(all.nth(UINT64_MAX - 1) == "t18446744073709551614");
    CHECK(all.without(parse("t[0-18446744073709551614]")).encode() == "t18446744073709551615");
}

TEST_CASE("hostlist - removing and excluding keep the order") {
    CHECK(parse("a,b,a,c").removed(parse("a,c")).expand() == std::vector<std::string>{"b", "a"});
    CHECK(parse("n[3,1,2]").removed(parse("n1,n9")).encode() == "n[3,2]");
    CHECK(parse("a,b,a,c").excluding(parse("a,x")).expand() == std::vector<std::string>{"b", "c"});
    CHECK(parse("n[0-9]").excluding(parse("n[2-7]")).encode() == "n[0-1,8-9]");
}

TEST_CASE("hostlist - errors") {
    using K = jobspec::model::HostlistError;
    CHECK(error("foo[") == K::syntax);
    CHECK(error("foo[1-") == K::syntax);
    CHECK(error("foo[]") == K::syntax);
    CHECK(error("foo[a]") == K::syntax);
    CHECK(error("foo[1]bar[2]") == K::syntax);
    CHECK(error("foo]") == K::syntax);
    CHECK(error("foo bar") == K::syntax);
    CHECK(error("foo[1;2]") == K::syntax);
    CHECK(error("foo[5-3]") == K::order);
    CHECK(error("foo[99999999999999999999]") == K::overflow);
    CHECK(error("foo[18446744073709551616]") == K::overflow);
    CHECK(error("foo[1-18446744073709551616]") == K::overflow);
    // The one range whose hosts no 64-bit count can say.
    CHECK(error("foo[0-18446744073709551615]") == K::overflow);
    CHECK(error("foo[00-18446744073709551615]") == K::overflow);
    CHECK(error("foo[0-099999999999999999999]") == K::overflow);  // found by fuzz-constraint_json
    CHECK(error("1[09007569223372036854775807]") == K::overflow); // found by fuzz-hostlist
    CHECK(error("n[" + std::string(255, '0') + "1]") == K::overflow);
    auto e = jobspec::model::decode_hostlist("ab[1-2],c d").error();
    CHECK(e.offset == 9);
}
