// R relations with gpus: union, intersection, difference, inclusion and allocation over
// ranks that hold cores and gpus, with rank ranges that meet at their ends.
#include <doctest/doctest.h>

#include <string>

#include "model/decoders.hpp"
#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

using jobspec::IdSet;
using jobspec::ResourceSet;

namespace {

IdSet ids(std::string_view text) {
    return *jobspec::model::decode_idset(text);
}

/// A resource set from "RANKS:CORES:GPUS" groups separated by spaces ("0-3:0-3:0-1 4:0:").
ResourceSet set(std::string_view groups, std::string_view nodelist = "") {
    ResourceSet r;
    std::size_t start = 0;
    while (start < groups.size()) {
        auto end = groups.find(' ', start);
        if (end == std::string_view::npos)
            end = groups.size();
        const std::string_view g = groups.substr(start, end - start);
        const auto c1 = g.find(':');
        const auto c2 = g.find(':', c1 + 1);
        REQUIRE(
            r.add(ids(g.substr(0, c1)), ids(g.substr(c1 + 1, c2 - c1 - 1)), ids(g.substr(c2 + 1))));
        start = end + 1;
    }
    if (!nodelist.empty())
        REQUIRE(r.set_nodelist(*jobspec::model::decode_hostlist(nodelist)));
    return r;
}

std::string allocation(std::string_view yaml, const ResourceSet& r) {
    auto js = jobspec::read_jobspec(yaml, {jobspec::DocumentFormat::yaml, true, {}});
    REQUIRE_MESSAGE(js.ok(), yaml);
    auto a = jobspec::match_jobspec(js.value(), r);
    if (!a.ok())
        return "error: " + a.diagnostics().begin()->message;
    std::string out = a.value().summary();
    if (a.value().nslots)
        out += " nslots=" + std::to_string(*a.value().nslots);
    if (!a.value().nodelist().empty())
        out += " hosts=" + a.value().nodelist().encode();
    for (const auto& [name, ranks] : a.value().properties())
        out += " " + name + "=" + ranks.format();
    return out;
}

std::string v1(std::string_view resources) {
    return "version: 1\nresources: " + std::string(resources) +
           "\ntasks: [{command: [app], slot: s, count: {per_slot: 1}}]\n"
           "attributes: {system: {duration: 0}}\n";
}

std::string matched(std::string_view constraint, const ResourceSet& r) {
    auto c = jobspec::read_constraint(constraint);
    REQUIRE(c.ok());
    auto m = c.value().match(r);
    REQUIRE(m.ok());
    return m.value().format();
}

} // namespace

TEST_CASE("relations - intersection and difference per rank, gpus included") {
    const ResourceSet a = set("0-3:0-3:0-1", "n[0-3]");
    const ResourceSet b = set("0:3: 1:0-3: 2::1 3-5:0-3:0-1", "n[0-5]");
    CHECK(a.intersected(b).summary() ==
          "rank0/core3 rank1/core[0-3] rank2/gpu1 rank3/core[0-3],gpu[0-1]");
    CHECK(a.without(b).summary() == "rank0/core[0-2],gpu[0-1] rank1/gpu[0-1] rank2/core[0-3],gpu0");
    CHECK(a.without(b).nodelist().encode() == "n[0-2]");
    CHECK(b.without(a).summary() == "rank[4-5]/core[0-3],gpu[0-1]");
    CHECK(b.without(a).nodelist().encode() == "n[4-5]");
    // Gpus alone are subtracted and intersected too.
    const ResourceSet gpus = set("0-3::1");
    CHECK(a.without(gpus).summary() == "rank[0-3]/core[0-3],gpu0");
    CHECK(a.intersected(gpus).summary() == "rank[0-3]/gpu1");
    CHECK(a.intersected(gpus).count_gpus() == 4);
    CHECK(a.intersected(gpus).count_cores() == 0);
    CHECK(a.without(set("0-3:0-3:0-1")).summary() == "");
}

TEST_CASE("relations - rank ranges that meet at one end") {
    const ResourceSet a = set("0-3:0-1:0");
    // The other set starts at this one's last rank, and at its first.
    const ResourceSet b = set("3-5:0-1:0");
    CHECK(a.intersected(b).summary() == "rank3/core[0-1],gpu0");
    CHECK(a.without(b).summary() == "rank[0-2]/core[0-1],gpu0");
    CHECK(b.without(a).summary() == "rank[4-5]/core[0-1],gpu0");
    const ResourceSet c = set("0:1:0 1-2:0: 3:0-1:");
    CHECK(a.intersected(c).summary() == "rank0/core1,gpu0 rank[1-2]/core0 rank3/core[0-1]");
    CHECK(a.without(c).summary() == "rank0/core0 rank[1-2]/core1,gpu0 rank3/gpu0");
    CHECK(a.includes(c));
    CHECK_FALSE(c.includes(a));
}

TEST_CASE("relations - inclusion needs the cores and the gpus") {
    const ResourceSet a = set("0-3:0-3:0-1");
    CHECK(a.includes(a));
    CHECK(a.includes(set("3:0-3:0-1")));
    CHECK(a.includes(set("0::1")));
    CHECK(a.includes(set("1-2:3:")));
    CHECK_FALSE(a.includes(set("3:0-3:0-2")));
    CHECK_FALSE(a.includes(set("0::2")));
    CHECK_FALSE(a.includes(set("3-4:0:")));
    CHECK_FALSE(a.includes(set("1:4:")));
}

TEST_CASE("relations - union keeps each side's gpus and hosts in rank order") {
    const ResourceSet a = set("0-1:0-3:0-1 4:0-3:0-1", "n[0-1],n4");
    const ResourceSet b = set("2-3:0-3:0-1 5::0", "n[2-3],g5");
    const ResourceSet u = a.united(b);
    CHECK(u.summary() == "rank[0-4]/core[0-3],gpu[0-1] rank5/gpu0");
    CHECK(u.nodelist().encode() == "n[0-4],g5");
    CHECK(u.count_gpus() == 11);
    CHECK(u.count_cores() == 20);
    CHECK(a.united(set("1:0:")).summary() == a.summary());
    CHECK_FALSE(a.appended(set("1:0:")).ok());
}

TEST_CASE("relations - groups come in rank order, however they were built") {
    const auto firsts = [](const ResourceSet& r) {
        std::string out;
        for (const auto& g : r.groups())
            out += (out.empty() ? "" : ",") + std::to_string(g.ranks.first());
        return out;
    };
    auto read = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"6-7","children":{"core":"0"}},)"
        R"({"rank":"0-1","children":{"core":"0-1"}},{"rank":"4","children":{"core":"0-2"}}],"nodelist":["n[0-4]"]}})");
    REQUIRE(read.ok());
    const ResourceSet& r = read.value();
    CHECK(firsts(r) == "0,4,6");
    CHECK(firsts(r.intersected(set("0-7:0-9:"))) == "0,4,6");
    CHECK(firsts(r.without(set("0-7:9:"))) == "0,4,6");
    CHECK(firsts(r.remapped()) == "0,2,3");
    CHECK(firsts(set("5:0-7: 2-3:0-9:").united(r)) == "0,2,4,5,6");
}

TEST_CASE("relations - counts and summaries with gpu-only ranks") {
    const ResourceSet r = set("0-1:0-3:0-1 2::0-2 3:0:");
    CHECK(r.count_ranks() == 4);
    CHECK(r.count_cores() == 9);
    CHECK(r.count_gpus() == 7);
    CHECK(r.summary() == "rank[0-1]/core[0-3],gpu[0-1] rank2/gpu[0-2] rank3/core0");
    CHECK(
        jobspec::to_json_text(jobspec::to_json_value(r)) ==
        R"({"version":1,"execution":{"R_lite":[{"rank":"0-1","children":{"core":"0-3","gpu":"0-1"}},)"
        R"({"rank":"2","children":{"core":"","gpu":"0-2"}},{"rank":"3","children":{"core":"0"}}],)"
        R"("nodelist":[],"starttime":0.0,"expiration":0.0}})"
        "\n");
}

TEST_CASE("relations - hosts of the last rank of a range") {
    ResourceSet r = set("0-3:0-1:0 4-7:0-1:", "n[0-3],m[4-7]");
    CHECK(r.ranks_of(*jobspec::model::decode_hostlist("n3")).format() == "3");
    CHECK(r.ranks_of(*jobspec::model::decode_hostlist("m7")).format() == "7");
    CHECK(r.ranks_of(*jobspec::model::decode_hostlist("n3,m4")).format() == "3-4");
    CHECK(r.ranks_of(*jobspec::model::decode_hostlist("n[0-3],m[4-7]")).format() == "0-7");
    CHECK(r.filtered(ids("3-4")).nodelist().encode() == "n3,m4");
    CHECK(r.filtered(ids("3-4")).summary() == "rank3/core[0-1],gpu0 rank4/core[0-1]");
    r.nslots = 4;
    CHECK(r.filtered(ids("0")).nslots == 4);
}

TEST_CASE("relations - property names and constraint matching") {
    ResourceSet r = set("0-3:0-1:0 4-7:0-1:", "n[0-7]");
    CHECK_FALSE(r.set_property("a^b", ids("0")));
    CHECK_FALSE(r.set_property("a|b", ids("0")));
    CHECK(r.set_property("a@b", ids("0")));
    CHECK(r.set_property("ssd", ids("0-1,4")));
    CHECK_FALSE(r.set_property("big", ids("8")));
    CHECK(matched(R"({"properties":["ssd"]})", r) == "0-1,4");
    CHECK(matched(R"({"properties":["^ssd"]})", r) == "2-3,5-7");
    CHECK(matched(R"({"properties":["ssd","^a@b"]})", r) == "1,4");
    CHECK(matched(R"({"ranks":["6-100"]})", r) == "6-7");
    CHECK(matched(R"({"or":[{"ranks":["1"]},{"hostlist":["n7"]}]})", r) == "1,7");
    CHECK(matched(R"({"or":[]})", r) == "0-7");
    CHECK(matched(R"({"and":[{"ranks":["0-5"]},{"not":[{"ranks":["2"]}]}]})", r) == "0-1,3-5");
}

TEST_CASE("relations - allocation: exact fits, gpus, and what stays local") {
    ResourceSet r = set("0-1:0-1:0 2-3:0-3:0-1", "n[0-3]");
    REQUIRE(r.set_property("ssd", ids("0-3")));
    REQUIRE(r.set_property("+local", ids("0-3")));
    // Nodes with exactly the cores and gpus asked for are used.
    const std::string two_cores_one_gpu =
        "[{type: node, count: 2, with: [{type: slot, count: 1, label: s, with: [{type: core, "
        "count: 2}, {type: gpu, count: 1}]}]}]";
    CHECK(allocation(v1(two_cores_one_gpu), r) ==
          "rank[0-1]/core[0-1],gpu0 nslots=2 hosts=n[0-1] ssd=0-1");
    // Two gpus a node: only ranks 2-3 have them.
    const std::string two_gpus = "[{type: node, count: 2, with: [{type: slot, count: 1, label: "
                                 "s, with: [{type: core, count: 1}, {type: gpu, count: 2}]}]}]";
    CHECK(allocation(v1(two_gpus), r) == "rank[2-3]/core0,gpu[0-1] nslots=2 hosts=n[2-3] ssd=2-3");
    const std::string three_nodes = "[{type: node, count: 3, with: [{type: slot, count: 1, "
                                    "label: s, with: [{type: core, count: 1}, {type: gpu, "
                                    "count: 2}]}]}]";
    CHECK(allocation(v1(three_nodes), r) ==
          "error: asks 3 nodes with 1 core and 2 gpus each: of the 4 nodes, 2 have 2 gpus");
    // Slots without nodes: gpus limit how many fit a rank.
    const std::string slots = "[{type: slot, count: 4, label: s, with: [{type: core, count: 1}, "
                              "{type: gpu, count: 1}]}]";
    CHECK(allocation(v1(slots), r) ==
          "rank[0-1]/core0,gpu0 rank2/core[0-1],gpu[0-1] nslots=4 hosts=n[0-2] ssd=0-2");
    const std::string too_many = "[{type: slot, count: 7, label: s, with: [{type: core, count: "
                                 "1}, {type: gpu, count: 1}]}]";
    CHECK(allocation(v1(too_many), r) ==
          "error: asks 7 slots of 1 core and 1 gpu, each on one node: there are 4 nodes, "
          "which hold 6 such slots");
}
