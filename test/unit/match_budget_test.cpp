// A placement under a step budget: it stops cleanly when the budget is spent
// (match.budget, located, with the steps taken), whatever the jobspec, on R and on a graph.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

namespace {

using jobspec::IdSet;

jobspec::ResourceSet nodes(std::uint64_t n, std::uint64_t cores) {
    jobspec::ResourceSet r;
    r.add(IdSet::range(0, n - 1), IdSet::range(0, cores - 1), {});
    return r;
}

/// A slot of `count` sibling node vertices, the i-th asking 1 to i*7 % 256 + 1 nodes:
/// each expansion of a node count runs the node assignment's flow over all of them.
std::string many_node_vertices(int count) {
    std::string nodes;
    for (int i = 0; i < count; ++i)
        nodes += (i ? "," : "") + std::string(R"({"type":"node","count":{"min":1,"max":)") +
                 std::to_string(i * 7 % 256 + 1) +
                 R"(},"with":[{"type":"core","count":1}]})";
    return R"({"version":1,"resources":[{"type":"slot","count":1,"label":"task","with":[)" +
           nodes +
           R"(]}],"tasks":[{"command":["app"],"slot":"task","count":{"per_slot":1}}],)"
           R"("attributes":{"system":{"duration":60}}})";
}

const char* small_job = R"({"version":1,"resources":[{"type":"node","count":2,"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":2}]}]}],"tasks":[{"command":["app"],"slot":"task","count":{"per_slot":1}}],"attributes":{"system":{"duration":60}}})";

} // namespace

TEST_CASE("match - a step budget stops a placement cleanly, located, with the steps taken") {
    const auto r = nodes(256, 4);
    jobspec::MatchOptions options;
    options.max_steps = 1;
    const auto out = jobspec::match_jobspec(small_job, r, options);
    REQUIRE_FALSE(out.ok());
    const auto& d = *out.diagnostics().begin();
    CHECK(d.code == jobspec::Code::match_budget);
    CHECK(d.severity == jobspec::Severity::error);
    CHECK(d.location.pointer == "/resources");
    CHECK(d.message ==
          "placing it would take more steps than the 1 it may take; it is not judged");
    CHECK(d.help == "it stopped after 2 steps");
}

TEST_CASE("match - a budget large enough changes nothing") {
    const auto r = nodes(256, 4);
    jobspec::MatchOptions bounded;
    bounded.max_steps = 100000;
    const auto a = jobspec::match_jobspec(small_job, r, bounded);
    const auto b = jobspec::match_jobspec(small_job, r);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a.value().summary() == b.value().summary());
    // Not now, ever: the explanation is the same too.
    jobspec::MatchOptions free = bounded;
    free.free = nodes(1, 4);
    const auto pending = jobspec::match_jobspec(small_job, r, free);
    REQUIRE_FALSE(pending.ok());
    CHECK(pending.diagnostics().begin()->code == jobspec::Code::match_pending);
}

TEST_CASE("match - a costly jobspec stops at its budget, in a time the budget bounds") {
    // 250 node vertices on 256 nodes: unbounded, placing it takes tenths of a second.
    const auto r = nodes(256, 4);
    const std::string text = many_node_vertices(250);
    jobspec::MatchOptions options;
    options.max_steps = 200000;
    const auto start = std::chrono::steady_clock::now();
    const auto out = jobspec::match_jobspec(text, r, options);
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(out.ok());
    CHECK(out.diagnostics().begin()->code == jobspec::Code::match_budget);
    // The same budget always stops at the same step.
    const auto again = jobspec::match_jobspec(text, r, options);
    CHECK(again.diagnostics().begin()->help == out.diagnostics().begin()->help);
    // Printed, not asserted: steps are work, not time (docs/PERFORMANCE.md).
    MESSAGE("200,000 steps of the 250-vertex placement: "
            << std::chrono::duration<double, std::milli>(took).count() << " ms");
}

TEST_CASE("match - the budget holds on Fluxion's graph and for xor_slot choices") {
    const std::string graph = R"({"graph":{"nodes":[
      {"id":"0","metadata":{"type":"cluster","basename":"c","name":"c0","id":0,"uniq_id":0,"rank":-1,"exclusive":false,"size":1,"paths":{"containment":"/c0"}}},
      {"id":"1","metadata":{"type":"node","basename":"n","name":"n0","id":0,"uniq_id":1,"rank":0,"exclusive":false,"size":1,"paths":{"containment":"/c0/n0"}}},
      {"id":"2","metadata":{"type":"core","basename":"core","name":"core0","id":0,"uniq_id":2,"rank":0,"exclusive":false,"size":1,"paths":{"containment":"/c0/n0/core0"}}}],
      "edges":[{"source":"0","target":"1","metadata":{"subsystem":"containment"}},
               {"source":"1","target":"2","metadata":{"subsystem":"containment"}}]}})";
    const auto r = jobspec::read_resource_set(graph);
    REQUIRE(r.ok());
    const char* one_core = R"({"version":1,"resources":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}],"tasks":[{"command":["app"],"slot":"task","count":{"per_slot":1}}],"attributes":{"system":{"duration":60}}})";
    jobspec::MatchOptions options;
    options.max_steps = 1;
    const auto out = jobspec::match_jobspec(one_core, r.value(), options);
    REQUIRE_FALSE(out.ok());
    CHECK(out.diagnostics().begin()->code == jobspec::Code::match_budget);
    options.max_steps = 1000;
    CHECK(jobspec::match_jobspec(one_core, r.value(), options).ok());
}
