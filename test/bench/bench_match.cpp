// Matching benchmarks: allocate (jobspec match) on 10,000 nodes, and under a large
// constraint on 11,000 nodes as R and as a Fluxion graph (the constrained_* rows).
//   build-release/test/bench/bench-match --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
// The V1 requests run on the V1-only matcher too (issue 31's baseline): build this file
// against that commit's library and run the two binaries in turn (docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <jobspec/document.hpp>
#include <jobspec/match.hpp>

#include "r_samples.hpp"

namespace {

std::string job(const std::string& resources, const std::string& system = "",
                int version = 1) {
    return "{\"version\":" + std::to_string(version) + ",\"resources\":[" + resources +
           "],\"tasks\":[{\"command\":[\"app\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
           "\"attributes\":{\"system\":{\"duration\":0" +
           system + "}}}";
}

void allocate_on(benchmark::State& state, const jobspec::ResourceSet& r, const std::string& text,
                 jobspec::Dialect dialect) {
    jobspec::ReadOptions reading;
    reading.dialect = dialect;
    const auto js = jobspec::read_jobspec(text, reading);
    if (!js.ok()) {
        state.SkipWithError("the jobspec does not read");
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::match_jobspec(js.value(), r));
    const auto a = jobspec::match_jobspec(js.value(), r);
    state.counters["ranks"] = a.ok() ? static_cast<double>(a.value().count_ranks()) : -1;
}

void allocate_in(benchmark::State& state, const std::string& r_text, const std::string& text,
                 jobspec::Dialect dialect) {
    allocate_on(state, jobspec::read_resource_set(r_text).value(), text, dialect);
}

void allocate(benchmark::State& state, const std::string& r_text, const std::string& text) {
    allocate_in(state, r_text, text, jobspec::Dialect::rfc);
}

void allocate_fluxion(benchmark::State& state, const std::string& r_text,
                      const std::string& text) {
    allocate_in(state, r_text, text, jobspec::Dialect::fluxion);
}

/// Fluxion's or-slots: `count` slots of 16 cores or of 8 cores and a gpu.
std::string or_slots(int count) {
    const std::string n = std::to_string(count);
    return "{\"type\":\"slot\",\"count\":" + n +
           ",\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]},"
           "{\"type\":\"slot\",\"count\":" +
           n +
           ",\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":8},{\"type\":"
           "\"gpu\",\"count\":1}]}";
}

const std::string constraint = ",\"constraints\":{\"and\":[{\"properties\":[\"ssd\"]},{\"not\":[{"
                               "\"hostlist\":[\"node[100-199]\"]}]}]}";

// V1, 3 levels: 64 nodes of 2 slots of 16 cores, on nodes with an ssd but not 100-199.
BENCHMARK_CAPTURE(allocate, v1_mixed_10000_nodes, bench::mixed_r(10000),
                  job("{\"type\":\"node\",\"count\":64,\"with\":[{\"type\":\"slot\",\"count\":2,"
                      "\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]}]}",
                      constraint))
    ->Unit(benchmark::kMicrosecond);
// V1, 2 levels: 1,000 slots of 4 cores and a gpu, no node.
BENCHMARK_CAPTURE(allocate, v1_mixed_10000_slots, bench::mixed_r(10000),
                  job("{\"type\":\"slot\",\"count\":1000,\"label\":\"task\",\"with\":[{\"type\":"
                      "\"core\",\"count\":4},{\"type\":\"gpu\",\"count\":1}]}",
                      constraint))
    ->Unit(benchmark::kMicrosecond);
// V1 that cannot fit: the explanation's narrowing.
BENCHMARK_CAPTURE(allocate, v1_mixed_10000_unsatisfiable, bench::mixed_r(10000),
                  job("{\"type\":\"node\",\"count\":6000,\"with\":[{\"type\":\"slot\",\"count\":"
                      "2,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]}]}",
                      constraint))
    ->Unit(benchmark::kMicrosecond);
// V1 on 10,000 nodes that are all different (no two ranks alike).
BENCHMARK_CAPTURE(allocate, v1_different_10000_nodes, bench::different_r(),
                  job("{\"type\":\"node\",\"count\":64,\"with\":[{\"type\":\"slot\",\"count\":2,"
                      "\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]}]}"))
    ->Unit(benchmark::kMicrosecond);
// Beyond V1: a range of nodes (as many as fit), and two node requests sharing the ranks.
BENCHMARK_CAPTURE(allocate, range_mixed_10000_nodes, bench::mixed_r(10000),
                  job("{\"type\":\"node\",\"count\":\"64+\",\"with\":[{\"type\":\"slot\",\"count\":"
                      "2,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]}]}",
                      constraint))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocate, two_node_requests_different_10000, bench::different_r(),
                  job("{\"type\":\"node\",\"count\":64,\"with\":[{\"type\":\"slot\",\"count\":2,"
                      "\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":16}]}]},"
                      "{\"type\":\"node\",\"count\":32,\"with\":[{\"type\":\"slot\",\"count\":1,"
                      "\"label\":\"g\",\"with\":[{\"type\":\"core\",\"count\":2000}]}]}"))
    ->Unit(benchmark::kMicrosecond);

// Fluxion's or-slots: on each of 64 nodes, and 1,000 with no node; then on nodes that
// are all different (each size of node is its own table of mixes).
BENCHMARK_CAPTURE(allocate_fluxion, or_slots_mixed_10000_nodes, bench::mixed_r(10000),
                  job("{\"type\":\"node\",\"count\":64,\"with\":[" + or_slots(2) + "]}",
                      constraint, 9999))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocate_fluxion, or_slots_mixed_10000_slots, bench::mixed_r(10000),
                  job(or_slots(1000), constraint, 9999))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocate_fluxion, or_slots_different_10000_slots, bench::different_r(),
                  job(or_slots(1000), "", 9999))
    ->Unit(benchmark::kMicrosecond);

// Under a large constraint (issue 59): 4 nodes within a 1,000-term hostlist (one host a
// term, spread over the nodes) and a ranks idset, on 11,000 nodes as R and as a Fluxion
// graph of 2 sockets of 44 cores a node (1,001,001 vertices, built here once).
// JOBSPEC_BENCH_NODES sets fewer nodes (for callgrind).
const int constrained_nodes = [] {
    const char* n = std::getenv("JOBSPEC_BENCH_NODES");
    return n != nullptr ? std::atoi(n) : 11000;
}();

std::string hostlist_and_ranks() {
    std::string hosts;
    for (int i = 0; i < 1000; ++i)
        hosts += (i == 0 ? "node" : ",node") + std::to_string(i * 11 + 5);
    return R"(,"constraints":{"and":[{"hostlist":[")" + hosts + R"("]},{"ranks":["0-9999"]}]})";
}

/// cluster0 -> node0.. (rank i) -> 2 sockets -> 44 cores each, as JGF.
std::string cluster_graph(int nodes) {
    std::string vertices;
    std::string edges;
    int next = 0;
    const auto add = [&](int parent, const std::string& type, int id, const std::string& path,
                         const std::string& extra) {
        const int i = next++;
        vertices += (i == 0 ? "" : ",") + std::string(R"({"id":")") + std::to_string(i) +
                    R"(","metadata":{"type":")" + type + R"(","id":)" + std::to_string(id) +
                    R"(,"paths":{"containment":")" + path + "\"}" + extra + "}}";
        if (parent >= 0)
            edges += (edges.empty() ? "" : ",") + std::string(R"({"source":")") +
                     std::to_string(parent) + R"(","target":")" + std::to_string(i) + "\"}";
        return i;
    };
    const int root = add(-1, "cluster", 0, "/cluster0", "");
    for (int n = 0; n < nodes; ++n) {
        const std::string node_path = "/cluster0/node" + std::to_string(n);
        const int node = add(root, "node", n, node_path,
                             R"(,"rank":)" + std::to_string(n) + R"(,"name":"node)" +
                                 std::to_string(n) + "\"");
        for (int s = 0; s < 2; ++s) {
            const std::string socket_path = node_path + "/socket" + std::to_string(s);
            const int socket = add(node, "socket", s, socket_path, "");
            for (int c = s * 44; c < (s + 1) * 44; ++c)
                add(socket, "core", c, socket_path + "/core" + std::to_string(c), "");
        }
    }
    return R"({"graph":{"nodes":[)" + vertices + R"(],"edges":[)" + edges + "]}}";
}

const std::string one_core_slot =
    R"({"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]})";

void constrained_r(benchmark::State& state) {
    static const auto r = jobspec::read_resource_set(bench::mixed_r(constrained_nodes)).value();
    allocate_on(state, r,
                job(R"({"type":"node","count":4,"with":[)" + one_core_slot + "]}",
                    hostlist_and_ranks()),
                jobspec::Dialect::rfc);
}
BENCHMARK(constrained_r)->Unit(benchmark::kMicrosecond);

void constrained_graph(benchmark::State& state) {
    static const auto r = [] {
        jobspec::Limits limits;
        limits.max_input_bytes = std::size_t{1} << 31;
        return std::make_unique<jobspec::ResourceSet>(
            jobspec::read_resource_set(cluster_graph(constrained_nodes), limits).value());
    }();
    // A graph's cores are in sockets: the request names the socket.
    allocate_on(state, *r,
                job(R"({"type":"node","count":4,"with":[{"type":"socket","count":1,"with":[)" +
                        one_core_slot + "]}]}",
                    hostlist_and_ranks()),
                jobspec::Dialect::fluxion);
}
BENCHMARK(constrained_graph)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
