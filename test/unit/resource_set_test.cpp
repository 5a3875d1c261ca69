// Resource sets (RFC 20 R): reading, checks, writing and operations.
#include <jobspec/emit.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_set.hpp>

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

#include "model/decoders.hpp"
#include <string>

using jobspec::Hostlist;
using jobspec::IdSet;
using jobspec::ResourceSet;

namespace {

IdSet ids(std::string_view text) {
    return *jobspec::model::decode_idset(text);
}
Hostlist hosts(std::string_view text) {
    return *jobspec::model::decode_hostlist(text);
}

ResourceSet encode(std::string_view ranks, std::string_view cores, std::string_view gpus = "",
                   std::string_view nodelist = "") {
    ResourceSet r;
    REQUIRE(r.add(ids(ranks), ids(cores), ids(gpus)));
    if (!nodelist.empty())
        REQUIRE(r.set_nodelist(hosts(nodelist)));
    return r;
}

/// The codes and pointers of reading R text, "code pointer" each.
std::vector<std::string> problems(std::string_view text) {
    std::vector<std::string> out;
    for (const auto& d : jobspec::read_resource_set(text).diagnostics())
        out.push_back(std::string(d.code_name()) + " " + d.location.pointer);
    return out;
}

std::string r_with(std::string_view execution_extra,
                   std::string_view lite = R"([{"rank":"0-3","children":{"core":"0-3"}}])",
                   std::string_view nodelist = R"(,"nodelist":["n[0-3]"])") {
    return std::string(R"({"version":1,"execution":{"R_lite":)") + std::string(lite) +
           std::string(nodelist) + std::string(execution_extra) + "}}";
}

} // namespace

TEST_CASE("R - RFC 20's example reads, checks and writes back") {
    const std::string example = R"({"version": 1, "execution": {"R_lite": [{"rank": "19-22",
        "children": {"core": "0-47", "gpu": "0-7"}}], "nodelist": ["node[186-189]"],
        "nslots": 32, "starttime": 1676560542, "expiration": 1676562342}})";
    auto r = jobspec::read_resource_set(example);
    REQUIRE(r.ok());
    const ResourceSet& set = r.value();
    CHECK(set.count_ranks() == 4);
    CHECK(set.count_cores() == 192);
    CHECK(set.count_gpus() == 32);
    CHECK(set.nslots == 32);
    CHECK(set.summary() == "rank[19-22]/core[0-47],gpu[0-7]");
    CHECK(set.ranks_of(hosts("node188")) == ids("21"));
    const std::string written = jobspec::to_json_text(jobspec::to_json_value(set));
    CHECK(
        written ==
        R"({"version":1,"execution":{"R_lite":[{"rank":"19-22","children":{"core":"0-47","gpu":"0-7"}}],)"
        R"("nodelist":["node[186-189]"],"nslots":32,"starttime":1676560542.0,"expiration":1676562342.0}})"
        "\n");
    auto again = jobspec::read_resource_set(written);
    REQUIRE(again.ok());
    CHECK(jobspec::to_json_text(jobspec::to_json_value(again.value())) == written);
}

TEST_CASE("R - checks say what is wrong, where") {
    CHECK(problems(R"({"version":2,"execution":{"R_lite":[],"nodelist":[]}})") ==
          std::vector<std::string>{"R.version /version"});
    CHECK(problems(R"({"execution":{"R_lite":[],"nodelist":[]}})") ==
          std::vector<std::string>{"R.missing-key "});
    CHECK(problems(r_with("", R"([{"rank":"0-3","children":{"core":"3-1"}}])")) ==
          std::vector<std::string>{"R.idset /execution/R_lite/0/children/core"});
    // An entry whose gpu idset is bad is dropped whole: core 0 of rank 3 is then given once.
    CHECK(
        problems(r_with(
            "",
            R"([{"rank":"0-3","children":{"core":"0","gpu":"01"}},{"rank":"3","children":{"core":"0"}}])")) ==
        std::vector<std::string>{"R.idset /execution/R_lite/0/children/gpu"});
    CHECK(problems(r_with(
              "",
              R"([{"rank":"0-3","children":{"core":"0"}},{"rank":"3-5","children":{"core":"0"}}])",
              R"(,"nodelist":["n[0-5]"])")) ==
          std::vector<std::string>{"R.overlap /execution/R_lite/1/rank"});
    CHECK(problems(r_with("", R"([{"rank":"0-3","children":{"core":"0"}}])",
                          R"(,"nodelist":["n[0-2]"])")) ==
          std::vector<std::string>{"R.nodelist-count /execution/nodelist"});
    CHECK(problems(r_with("", R"([{"rank":"0-3","children":{"core":"0"}}])",
                          R"(,"nodelist":["n[0-"])")) ==
          std::vector<std::string>{"R.hostlist /execution/nodelist/0"});
    // RFC 20: the nodelist is required and names every rank.
    CHECK(problems(r_with("", R"([{"rank":"0-3","children":{"core":"0"}}])", "")) ==
          std::vector<std::string>{"R.missing-key /execution"});
    CHECK(
        problems(r_with("", R"([{"rank":"0-3","children":{"core":"0"}}])", R"(,"nodelist":[])")) ==
        std::vector<std::string>{"R.nodelist-count /execution/nodelist"});
    CHECK(problems(r_with("", "[]", R"(,"nodelist":[])")).empty());
    CHECK(problems(r_with(R"(,"properties":{"a|b":"0"})")) ==
          std::vector<std::string>{"R.property-name /execution/properties/a|b"});
    CHECK(problems(r_with(R"(,"properties":{"ssd":"2-9"})")) ==
          std::vector<std::string>{"R.property-ranks /execution/properties/ssd"});
    CHECK(problems(r_with(R"(,"nslots":0)")) ==
          std::vector<std::string>{"R.nslots /execution/nslots"});
    CHECK(problems(r_with(R"(,"starttime":10,"expiration":5)")) ==
          std::vector<std::string>{"R.expiration /execution/expiration"});
    CHECK(problems(r_with(R"(,"starttime":10,"expiration":0)")).empty());
    CHECK(problems(r_with(R"(,"extra":1)")) ==
          std::vector<std::string>{"R.unknown-key /execution/extra"});
    CHECK(problems(r_with("", R"([{"rank":"0-3","children":{"core":"0","fpga":"0"}}])")) ==
          std::vector<std::string>{"R.unknown-key /execution/R_lite/0/children/fpga"});
    CHECK(problems("[1") == std::vector<std::string>{"R.json-syntax "});
    CHECK(problems(R"({"version":1,"execution":{"R_lite":[{"rank":"0"}],"nodelist":["n"]}})") ==
          std::vector<std::string>{"R.missing-key /execution/R_lite/0"});
}

TEST_CASE("R - numbers anywhere write back as they were read") {
    // Found by fuzz-resource_set: Boost.JSON 1.81 alone reads these an ulp off.
    const std::string text =
        R"({"version":1,"execution":{"R_lite":[],"nodelist":[],"starttime":1700000000.123456,)"
        R"("expiration":0.0},"scheduling":{"t":9.777777777777779e+30}})";
    auto r = jobspec::read_resource_set(text);
    REQUIRE(r.ok());
    const auto written = jobspec::to_json_text(jobspec::to_json_value(r.value()));
    CHECK(written.find("9.777777777777779e+30") != std::string::npos);
    CHECK(written.find("1700000000.123456") != std::string::npos);
    CHECK_FALSE(jobspec::read_resource_set(R"({"version":1} {})").ok());
}

TEST_CASE("R - the @ suffix and leading + are valid property names") {
    CHECK(ResourceSet::valid_property_name("amd-mi50@gpu"));
    CHECK(ResourceSet::valid_property_name("+queue-debug"));
    CHECK(ResourceSet::valid_property_name("été"));
    for (const auto* bad : {"", "a!", "a&b", "a'", "a\"", "^a", "a`", "a|b", "(a)", "a\xff"})
        CHECK_FALSE(ResourceSet::valid_property_name(bad));
}

TEST_CASE("R - ranks with the same children are one group") {
    ResourceSet r;
    CHECK(r.add(ids("0-1"), ids("0-3"), {}));
    CHECK(r.add(ids("5"), ids("0-3"), {}));
    CHECK(r.add(ids("2"), ids("0-7"), ids("0")));
    CHECK_FALSE(r.add(ids("1-2"), ids("0"), {}));
    CHECK(r.groups().size() == 2);
    CHECK(r.summary() == "rank[0-1,5]/core[0-3] rank2/core[0-7],gpu0");
    const ResourceSet big = encode("0-99999", "0-63", "0-3", "node[0-99999]");
    CHECK(big.groups().size() == 1);
    CHECK(big.nodelist().runs().size() == 1);
    CHECK(big.count_cores() == 6400000);
}

TEST_CASE("R - set operations per rank, hosts following their ranks") {
    const ResourceSet a = encode("0-1", "0-3", "", "n[0-1]");
    const ResourceSet b = encode("2-3", "0-7", "0", "n[2-3]");
    auto both = a.appended(b);
    REQUIRE(both.ok());
    const ResourceSet& u = both.value();
    CHECK(u.summary() == "rank[0-1]/core[0-3] rank[2-3]/core[0-7],gpu0");
    CHECK(u.nodelist().encode() == "n[0-3]");
    CHECK(a.united(b).summary() == u.summary());
    const ResourceSet c = encode("1-2", "2-3", "", "n[1-2]");
    CHECK(u.without(c).summary() ==
          "rank0/core[0-3] rank1/core[0-1] rank2/core[0-1,4-7],gpu0 rank3/core[0-7],gpu0");
    CHECK(u.intersected(c).summary() == "rank[1-2]/core[2-3]");
    CHECK(u.intersected(c).nodelist().encode() == "n[1-2]");
    CHECK(u.includes(c));
    CHECK_FALSE(c.includes(u));
    CHECK(u.without(u).empty());
    CHECK(u.filtered(ids("1,3")).nodelist().encode() == "n[1,3]");
    CHECK(u.ranks_of(hosts("n[2-9],m1")) == ids("2-3"));
}

TEST_CASE("R - a union merges the resources of a rank in both sets") {
    ResourceSet a = encode("0-1", "0-3", "", "n[0-1]");
    REQUIRE(a.set_property("ssd", ids("0")));
    a.starttime = 10;
    const ResourceSet b = encode("1-2", "4-5", "0", "m[1-2]");
    const ResourceSet u = a.united(b);
    CHECK(u.summary() == "rank0/core[0-3] rank1/core[0-5],gpu0 rank2/core[4-5],gpu0");
    CHECK(u.nodelist().encode() == "n[0-1],m2"); // rank 1 keeps the first set's host
    CHECK(u.properties().at("ssd") == ids("0"));
    CHECK(u.starttime == 0); // one allocation's window is not the union's
    CHECK(a.united(a).summary() == "rank[0-1]/core[0-3]");
    // A rank all of whose resources the other set has is the other set's rank.
    const ResourceSet covers = a.united(encode("0", "0-7", "", "x0"));
    CHECK(covers.nodelist().encode() == "x0,n1");
    CHECK(covers.properties().empty());
    auto clash = a.appended(encode("1", "3-4", "", "n1"));
    REQUIRE_FALSE(clash.ok());
    CHECK(clash.diagnostics()[0].message == "rank 1 has core3 in both resource sets");
    auto merged = a.appended(encode("1", "4-7", "", "n1"));
    REQUIRE(merged.ok());
    CHECK(merged.value().summary() == "rank0/core[0-3] rank1/core[0-7]");
}

TEST_CASE("R - intersection and difference: properties and hosts as flux-core keeps them") {
    ResourceSet a = encode("0-3", "0-3", "", "n[0-3]");
    REQUIRE(a.set_property("ssd", ids("0-3")));
    a.nslots = 4;
    a.expiration = 99;
    const ResourceSet b = encode("1-3", "2-5", "", "n1,x2,n3");
    const ResourceSet both = a.intersected(b);
    CHECK(both.summary() == "rank[1,3]/core[2-3]"); // rank 2's hosts differ
    CHECK(both.nodelist().encode() == "n[1,3]");
    CHECK(both.properties().empty());
    CHECK_FALSE(both.nslots);
    const ResourceSet rest = a.without(b);
    CHECK(rest.summary() == "rank0/core[0-3] rank[1-3]/core[0-1]"); // hosts not compared
    CHECK(rest.properties().at("ssd") == ids("0-3"));
    CHECK(rest.expiration == 0);
}

TEST_CASE("R - interleaved union keeps hosts in rank order") {
    const ResourceSet even = encode("0,2,4", "0", "", "e[0-2]");
    const ResourceSet odd = encode("1,3", "0", "", "o[0-1]");
    CHECK(even.united(odd).nodelist().encode() == "e0,o0,e1,o1,e2");
}

TEST_CASE("R - remap renumbers ranks and cores, not gpus") {
    ResourceSet r = encode("10-11,20", "0-1", "", "x[1-3]");
    REQUIRE(r.set_property("ssd", ids("11,20")));
    const ResourceSet m = r.remapped();
    CHECK(m.summary() == "rank[0-2]/core[0-1]");
    CHECK(m.properties().at("ssd") == ids("1-2"));
    ResourceSet mixed;
    REQUIRE(mixed.add(ids("4"), ids("0,2,4"), ids("1")));
    REQUIRE(mixed.add(ids("6"), ids("1,3,5"), ids("1")));
    CHECK(mixed.remapped().summary() == "rank[0-1]/core[0-2],gpu1");
}

TEST_CASE("R - rerank by hosts, every host once") {
    ResourceSet r = encode("10-11,20", "0-1", "", "x[1-3]");
    REQUIRE(r.set_property("ssd", ids("11,20")));
    r.nslots = 3;
    auto rr = r.reranked(hosts("x[3,2,1]"));
    REQUIRE(rr.ok());
    CHECK(rr.value().ranks() == ids("0-2"));
    CHECK(rr.value().nodelist().encode() == "x[3,2,1]");
    CHECK(rr.value().properties().at("ssd") == ids("0-1"));
    CHECK(rr.value().nslots == 3);
    const auto message = [&](std::string_view h) {
        auto bad = r.reranked(hosts(h));
        REQUIRE_FALSE(bad.ok());
        return bad.diagnostics()[0].message;
    };
    CHECK(message("x[3,2,1],y0") ==
          "too many hosts: the hostlist names 4, the resource set has 3 ranks");
    CHECK(message("x[1-2]") == "too few hosts: the hostlist names 2, the resource set has 3 ranks");
    CHECK(message("x[1-2],y0") == "host 'y0' is not in the resource set");
    CHECK(message("x[1-2],x1") == "host 'x1' is in the hostlist twice");
    CHECK_FALSE(encode("0", "0").reranked(hosts("a")).ok());
}

TEST_CASE("R - verify: the second R, one rank as found, against the first") {
    const ResourceSet expected = encode("0-1", "0-3", "0", "n[0-1]");
    const auto codes = [&](const ResourceSet& actual) {
        std::vector<std::string> out;
        for (const auto& d : expected.verify(actual))
            out.push_back(std::string(d.code_name()) + ": " + d.message);
        return out;
    };
    CHECK(codes(encode("1", "0-3", "0", "n1")).empty());
    CHECK(codes(encode("1", "0-1", "0", "n1")) ==
          std::vector<std::string>{"R.verify: rank 1 (n1) is missing core[2-3]"});
    CHECK(codes(encode("1", "0-7", "0-1", "n1")) ==
          std::vector<std::string>{"R.verify-extra: rank 1 (n1) has extra core[4-7],gpu1"});
    CHECK(codes(encode("1", "0-3", "0", "x")) ==
          std::vector<std::string>{"R.verify-hostname: rank 1 is host 'x', expected 'n1'"});
    CHECK(codes(encode("5", "0", "", "n5")) ==
          std::vector<std::string>{"R.verify-rank: rank 5 is not in the expected resource set"});
    CHECK(codes(expected).size() == 1);
}

TEST_CASE("R - a rank in several R_lite entries has all their resources") {
    auto r = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"0-1","children":{"core":"0-1"}},)"
        R"({"rank":"1","children":{"core":"2-3","gpu":"0"}}],"nodelist":["n[0-1]"]}})");
    REQUIRE(r.ok());
    CHECK(r.value().summary() == "rank0/core[0-1] rank1/core[0-3],gpu0");
    CHECK(r.value().nodelist().encode() == "n[0-1]");
}

TEST_CASE("R - host lookup with padding and suffixes") {
    const ResourceSet r = encode("0-4", "0", "", "n[08-10],foo[0-1]-eth2");
    CHECK(r.ranks_of(hosts("n10")) == ids("2"));
    CHECK(r.ranks_of(hosts("n[09-10]")) == ids("1-2"));
    CHECK(r.ranks_of(hosts("n9")).empty());
    CHECK(r.ranks_of(hosts("foo1-eth2")) == ids("4"));
}

TEST_CASE("R - problems point at the bytes of the value") {
    const std::string text =
        R"({"version":1,"execution":{"R_lite":[{"rank":"0","children":{"core":"3-1"}}],)"
        R"("nodelist":["n0"]}})";
    auto r = jobspec::read_resource_set(text);
    REQUIRE_FALSE(r.ok());
    const auto range = r.diagnostics()[0].location.range;
    CHECK(text.substr(range.begin, range.size()) == R"("3-1")");
}

TEST_CASE("R - a repeated key keeps its last value, as flux-core reads R") {
    auto r = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"0","children":{"core":"0"}}],)"
        R"("nodelist":["a"],"nodelist":["b"]}})");
    REQUIRE(r.ok());
    CHECK(r.value().nodelist().encode() == "b");
    REQUIRE(r.diagnostics().size() == 1);
    CHECK(r.diagnostics()[0].code_name() == "R.duplicate-key");
}

TEST_CASE("R - a stream of documents, as flux R reads its standard input") {
    const std::string one =
        R"({"version":1,"execution":{"R_lite":[{"rank":"0","children":{"core":"0"}}],)"
        R"("nodelist":["a"]}})";
    auto both = jobspec::read_resource_sets(one + "\n " + one + "\n");
    REQUIRE(both.ok());
    CHECK(both.value().size() == 2);
    CHECK(jobspec::read_resource_sets(" \n").value().empty());
    // The second document's error points into the whole text.
    const std::string bad = one + R"({"version":2})";
    auto r = jobspec::read_resource_sets(bad);
    REQUIRE_FALSE(r.ok());
    const auto range = r.diagnostics()[0].location.range;
    CHECK(bad.substr(range.begin, range.size()) == "2");
    CHECK_FALSE(jobspec::read_resource_sets(one + "x").ok());
}

namespace {

/// The R of configuration files (name, text, ...) as its short summary and nodelist, or
/// "code pointer@file:line:column" for each problem (columns in bytes).
std::string config(std::vector<jobspec::ConfigFile> files) {
    auto read = jobspec::read_resource_config(files);
    std::string out;
    for (const auto& d : read.diagnostics()) {
        const std::string& text = d.location.source ? d.location.source->text : std::string();
        const auto before = std::string_view(text).substr(0, std::min<std::size_t>(d.location.range.begin, text.size()));
        const auto line = std::count(before.begin(), before.end(), '\n') + 1;
        const auto column = before.size() - (before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1) + 1;
        out += std::string(d.code_name()) + " " + d.location.pointer + "@" +
               (d.location.source ? d.location.source->name : "?") + ":" + std::to_string(line) +
               ":" + std::to_string(column) + ";";
    }
    if (!read.ok() || !read.value().resources)
        return out;
    const ResourceSet& r = *read.value().resources;
    out += r.summary() + " " + r.nodelist().encode();
    for (const auto& [name, ranks] : r.properties())
        out += " " + name + ":" + ranks.format();
    return out;
}

} // namespace

TEST_CASE("R config - hosts get ranks in the order they first appear") {
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'b[0-1]'\ncores = '0-3'\n"
                             "[[resource.config]]\nhosts = 'a0,b1'\ngpus = '0'\n"
                             "properties = ['login']\n"}}) ==
          "rank0/core[0-3] rank1/core[0-3],gpu0 rank2/gpu0 b[0-1],a0 login:1-2");
    // Listed in any order: n5 is rank 0.
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n[5,3,1]'\ncores = '0'\n"}}) ==
          "rank[0-2]/core0 n[5,3,1]");
}

TEST_CASE("R config - files merge as flux-core merges a config directory") {
    const jobspec::ConfigFile first{"a.toml", "[[resource.config]]\nhosts = 'x0'\ncores = '0'\n"};
    const jobspec::ConfigFile second{"b.toml", "[[resource.config]]\nhosts = 'y0'\ncores = '1'\n"};
    const jobspec::ConfigFile other{"c.toml", "[resource]\nnoverify = true\n"};
    CHECK(config({first, second}) == "rank0/core1 y0");  // an array is replaced whole
    CHECK(config({first, other}) == "rank0/core0 x0");   // a table merges key by key
    CHECK(config({first, {"d.toml", "resource = 1\n"}}) == "R.type /resource@d.toml:1:12;");
    CHECK(config({{"e.json", R"({"resource":{"config":[{"hosts":"j0","cores":"0-1"}]}})"}}) ==
          "rank0/core[0-1] j0");
    CHECK(config({other}) == "R.config /resource@c.toml:1:1;");
    CHECK(config({{"f.toml", "x = 1\n"}}) == "R.config @?:1:1;");
}

TEST_CASE("R config - problems point into their file") {
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n0'\ncores = '0-'\n"}}) ==
          "R.idset /resource/config/0/cores@r.toml:3:9;");
    // After a two-byte character, toml++'s column 9 (in characters) is byte 10: at 'b'.
    CHECK(config({{"r.toml", "a = 'ñ' b\n"}}) == "R.config-syntax @r.toml:1:10;");
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n[0-1]'\ncores = '0-3'\n"
                             "[[resource.config]]\nhosts = 'n1'\ncores = '3'\n"}}) ==
          "R.overlap /resource/config/1@r.toml:5:9;");
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n[0-1]'\ncores = '0'\n"
                             "[[resource.config]]\nhosts = 'n2'\n"}}) ==
          "R.config /resource/config/1@r.toml:5:9;");
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n0'\njunk = 5\n"}}) ==
          "R.config /resource/config/0/junk@r.toml:3:1;");
    CHECK(config({{"r.toml", "[[resource.config]]\nhosts = 'n[0-2000000]'\ncores = '0'\n"}}) ==
          "limit.expansion /resource/config/0/hosts@r.toml:2:9;");
}

TEST_CASE("R config - toml++ 3.3.0's defects are syntax errors, not aborts or undefined behaviour") {
    // "[[[" reaches an assertion in parse_key(); U+020C, its whitespace test's unreachable.
    CHECK(config({{"r.toml", "[[["}}) == "R.config-syntax @r.toml:1:3;");
    CHECK(config({{"r.toml", "[[re\xC8\x8C"}}) == "R.config-syntax @r.toml:1:5;");
    CHECK(config({{"r.toml", "a = 1\xC8\x8C\n"}}) == "R.config-syntax @r.toml:1:6;");
}

TEST_CASE("R - TreePool's children follow the ranks: kept, renumbered, reranked (RFC 49)") {
    auto r = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"4-7","children":{"core":"0-3"}}],)"
        R"("nodelist":["n[4-7]"]},"scheduling":{"writer":"TreePool","children":[)"
        R"({"ranks":"4-5","topo":{}},{"ranks":"6-7","topo":{"socket":[]}}]}})");
    REQUIRE(r.ok());
    // Read once into the model, and written back from it.
    const auto children = [](const ResourceSet& s) {
        std::string out;
        for (const auto& e : *s.treepool)
            out += e.ranks.format() + ";";
        std::string written;
        const boost::json::value json = jobspec::to_json_value(s);
        for (const auto& e : json.at("scheduling").at("children").as_array())
            written += std::string(e.at("ranks").as_string()) + ";";
        CHECK(written == out);
        return out;
    };
    CHECK(children(r.value().filtered(ids("5-6"))) == "5;6;");
    CHECK(children(r.value().filtered(ids("6-7"))) == "6-7;");  // an entry left empty goes
    CHECK(children(r.value().remapped()) == "0-1;2-3;");       // for a sub-instance
    CHECK(children(r.value().reranked(hosts("n[7,6,5,4]")).value()) == "2-3;0-1;");
    // Another writer's key is its own: carried as it is.
    auto other = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"4-7","children":{"core":"0-3"}}],)"
        R"("nodelist":["n[4-7]"]},"scheduling":{"writer":"fluxion","children":[)"
        R"({"ranks":"4-5"}]}})");
    REQUIRE(other.ok());
    CHECK(!other.value().treepool);
    CHECK(boost::json::serialize(jobspec::to_json_value(other.value().remapped()).at("scheduling")) ==
          R"({"writer":"fluxion","children":[{"ranks":"4-5"}]})");
}
