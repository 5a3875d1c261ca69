// Fluxion's or-slots: slots side by side are alternatives, each instance any one of them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <jobspec/document.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

#include "match/demand_choices.hpp"

namespace {

using jobspec::IdSet;
using jobspec::match::Demand;
using jobspec::match::DemandChoices;

/// Ranks 0..n-1 with these cores and gpus each.
jobspec::ResourceSet nodes(std::uint64_t n, std::uint64_t cores, std::uint64_t gpus) {
    jobspec::ResourceSet r;
    r.add(IdSet::range(0, n - 1), IdSet::range(0, cores - 1),
          gpus == 0 ? IdSet{} : IdSet::range(0, gpus - 1));
    return r;
}

std::string job(const std::string& resources) {
    return "version: 9999\nresources: [" + resources +
           "]\ntasks: [{command: [app], slot: task, count: {per_slot: 1}}]\n"
           "attributes: {system: {duration: 0}}\n";
}

std::string slot(int count, const std::string& with) {
    return "{type: slot, count: " + std::to_string(count) + ", label: task, with: [" + with + "]}";
}

const std::string four_cores = "{type: core, count: 4}";
const std::string two_cores_one_gpu = "{type: core, count: 2}, {type: gpu, count: 1}";

/// The allocation's summary and nslots, or each diagnostic as "code: message @ pointer".
std::vector<std::string> fit(const std::string& yaml, const jobspec::ResourceSet& r) {
    jobspec::ReadOptions reading;
    reading.dialect = jobspec::Dialect::fluxion;
    auto js = jobspec::read_jobspec(yaml, reading);
    REQUIRE_MESSAGE(js.ok(), js.diagnostics()[0].message);
    auto alloc = jobspec::match_jobspec(js.value(), r);
    std::vector<std::string> out;
    for (const auto& d : alloc.diagnostics())
        out.push_back(std::string(d.code_name()) + ": " + d.message + " @ " + d.location.pointer);
    if (alloc.ok())
        out.push_back(alloc.value().summary() + " nslots " +
                      std::to_string(alloc.value().nslots.value_or(0)));
    return out;
}

} // namespace

TEST_CASE("or-slots - the ways of a demand stay few and least") {
    const Demand most{8, 2};
    const DemandChoices a(Demand{4, 0}), b(Demand{2, 1});
    const DemandChoices either = a.either(b);
    CHECK(either.ways() == std::vector<Demand>{{4, 0}, {2, 1}});
    // Two of either: 8 cores, or 6 and a gpu, or 4 and two gpus.
    CHECK(either.times(2, most).ways() == std::vector<Demand>{{8, 0}, {6, 1}, {4, 2}});
    // A way that needs more of both than another is dropped.
    CHECK(either.either(DemandChoices(Demand{5, 1})).ways() == either.ways());
    // A million of them: no node holds that many, and the work is a few sums.
    CHECK(either.times(1'000'000, most).empty());
    CHECK(either.times(3, most).ways() == std::vector<Demand>{{8, 2}});
    CHECK(*either.times(2, most).fitting(7, 1) == Demand{6, 1});
    CHECK(either.times(2, most).fitting(5, 1) == nullptr);
}

TEST_CASE("or-slots - each instance the earliest shape after which the rest still fit") {
    using jobspec::match::earliest_mix;
    using jobspec::match::instances_held;
    // Fluxion's flexible test 001: 8 cores and a gpu, or 10 cores; the first fits.
    const std::vector<Demand> small_big{{8, 1}, {10, 0}};
    CHECK(earliest_mix(small_big, 1, {36, 2}) == Demand{8, 1});
    CHECK(earliest_mix(small_big, 1, {10, 0}) == Demand{10, 0});
    // Three of them in 28 cores and a gpu: 8+1, then 10 and 10.
    CHECK(earliest_mix(small_big, 3, {28, 1}) == Demand{28, 1});
    CHECK(earliest_mix(small_big, 3, {27, 1}) == std::nullopt);
    // A node with 6 cores and a gpu holds two of 4 cores or 2 and a gpu: 4, then 2 and
    // the gpu; no third.
    const std::vector<Demand> four_or_two{{4, 0}, {2, 1}};
    CHECK(instances_held(four_or_two, 6, 1) == std::vector<Demand>{{4, 0}, {6, 1}});
    CHECK(instances_held(four_or_two, 6, 1, 1) == std::vector<Demand>{{4, 0}});
    CHECK(instances_held(four_or_two, 1, 0).empty());
}

TEST_CASE("or-slots - on a node, any mix of the shapes, the earliest first") {
    const std::string request = "{type: node, count: 1, with: [" + slot(2, four_cores) + ", " +
                                slot(2, two_cores_one_gpu) + "]}";
    // 8 cores hold two of four cores, the first shape; the gpu stays free.
    CHECK(fit(job(request), nodes(1, 8, 1)) ==
          std::vector<std::string>{"rank0/core[0-7] nslots 2"});
    // 6 cores and a gpu hold one of each.
    CHECK(fit(job(request), nodes(1, 6, 1)) ==
          std::vector<std::string>{"rank0/core[0-5],gpu0 nslots 2"});
    // 4 cores and two gpus hold two of two cores and a gpu.
    CHECK(fit(job(request), nodes(1, 4, 2)) ==
          std::vector<std::string>{"rank0/core[0-3],gpu[0-1] nslots 2"});
    CHECK(fit(job(request), nodes(2, 5, 0)) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 1 node with 2 task slots of 4 cores or of 2 cores and "
              "1 gpu each: of the 2 nodes, 0 can hold them @ /resources/0"});
}

TEST_CASE("or-slots - with no node, each instance on one node, as many as fit") {
    const std::string request = slot(3, four_cores) + ", " + slot(3, two_cores_one_gpu);
    CHECK(fit(job(request), nodes(2, 6, 1)) ==
          std::vector<std::string>{"rank0/core[0-5],gpu0 rank1/core[0-3] nslots 3"});
    CHECK(fit(job(request), nodes(1, 6, 1)) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 3 slots of 4 cores or 2 cores and 1 gpu, each on one "
              "node: there is 1 node, which holds 2 such slots @ /resources/1"});
}

TEST_CASE("or-slots - the last one's count, and never fewer than another's") {
    // Fluxion takes as many as the last or-slot's count, and each must have its own.
    CHECK(fit(job(slot(2, four_cores) + ", " + slot(1, two_cores_one_gpu)), nodes(4, 8, 1)) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: Fluxion allocates as many of these or-slots as the last "
              "one's count, 1, and this one asks at least 2 @ /resources/0"});
    CHECK(fit(job(slot(1, four_cores) + ", " + slot(2, two_cores_one_gpu)), nodes(4, 4, 0)) ==
          std::vector<std::string>{"rank[0-1]/core[0-3] nslots 2"});
}

TEST_CASE("or-slots - flux-sched's flexible test 001 takes the first shape that fits") {
    // cluster/rack/node/socket/[slot small {8 cores, 1 gpu}, slot big {10 cores}], on
    // nodes of 36 cores and 2 gpus (its tiny graph has 2 sockets of 18 and a gpu each).
    const std::string small_big =
        "{type: cluster, count: 1, with: [{type: rack, count: 1, with: [{type: node, count: "
        "1, with: [{type: socket, count: 1, with: [" +
        slot(1, "{type: core, count: 8}, {type: gpu, count: 1}") + ", " +
        slot(1, "{type: core, count: 10}") + "]}]}]}]}";
    const auto got = fit(job(small_big), nodes(2, 36, 2));
    REQUIRE(got.size() == 4); // three match.unchecked warnings, for cluster, rack and socket
    CHECK(got[3] == "rank0/core[0-7],gpu0 nslots 1");
    // Without a gpu free, the second shape.
    CHECK(fit(job(small_big), nodes(1, 36, 0)).back() == "rank0/core[0-9] nslots 1");
}

TEST_CASE("or-slots - of nodes: each instance one whole node of any of the shapes") {
    const std::string of_nodes =
        slot(2, "{type: node, count: 1, with: [{type: core, count: 16}, {type: gpu, count: 1}]}") +
        ", " + slot(2, "{type: node, count: 1, with: [{type: core, count: 32}]}");
    jobspec::ResourceSet r = nodes(1, 16, 2);
    r.add(IdSet::range(1, 1), IdSet::range(0, 31), {});
    r.add(IdSet::range(2, 2), IdSet::range(0, 7), {});
    CHECK(fit(job(of_nodes), r) ==
          std::vector<std::string>{"rank0/core[0-15],gpu[0-1] rank1/core[0-31] nslots 2"});
    CHECK(fit(job(of_nodes), nodes(3, 8, 0)) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 2 nodes (1 per slot) with 16 cores and 1 gpu or 32 "
              "cores each, whole: of the 3 nodes, 0 have 16 cores @ /resources/0/with/0/with/0"});
}

TEST_CASE("or-slots - what cannot be placed beside them") {
    CHECK(fit(job(slot(1, four_cores) + ", " + slot(1, two_cores_one_gpu) +
                  ", {type: core, count: 1}"),
              nodes(1, 8, 1)) ==
          std::vector<std::string>{
              "match.unsupported: Fluxion's or-slots are alternatives: nothing but other slots "
              "can be placed beside them @ /resources/2"});
}
