// Resource set (R), idset and hostlist benchmarks.
//   build-release/test/bench/bench-resource-set --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <string>

#include <benchmark/benchmark.h>
#include <boost/json/parse.hpp>

#include <jobspec/emit.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/resource_set.hpp>

#include "model/decoders.hpp"
#include "r_samples.hpp"

namespace {

using bench::different_r;
using bench::mixed_r;

void r_read_check(benchmark::State& state, const std::string& text) {
    for (auto _ : state) {
        auto r = jobspec::read_resource_set(text);
        if (!r.ok())
            state.SkipWithError("R did not read");
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void r_write(benchmark::State& state, const std::string& text) {
    const auto r = jobspec::read_resource_set(text).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(jobspec::to_json_value(r)));
}

void r_read_check_write(benchmark::State& state, const std::string& text) {
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(
            jobspec::to_json_value(jobspec::read_resource_set(text).value())));
    state.counters["targets"] =
        static_cast<double>(jobspec::read_resource_set(text).value().count_ranks());
}

BENCHMARK_CAPTURE(r_read_check_write, mixed_1000, mixed_r(1000))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(r_read_check_write, mixed_16384, mixed_r(16384))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(r_read_check_write, mixed_100000, mixed_r(100000))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(r_read_check, different_10000, different_r())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(r_write, different_10000, different_r())->Unit(benchmark::kMillisecond);

/// Baseline: Boost.JSON parsing the same 600 KB text, nothing more.
void baseline_boost_json_parse_different_10000(benchmark::State& state) {
    const std::string text = different_r();
    for (auto _ : state)
        benchmark::DoNotOptimize(boost::json::parse(text));
}
BENCHMARK(baseline_boost_json_parse_different_10000)->Unit(benchmark::kMillisecond);

std::string every_other(std::uint64_t n) {
    jobspec::IdSet s;
    for (std::uint64_t i = 0; i < 2 * n; i += 2)
        s.insert(i);
    return s.format();
}

void idset_encode_every_other_1e6(benchmark::State& state) {
    for (auto _ : state) {
        jobspec::IdSet s;
        for (std::uint64_t i = 0; i < 2000000; i += 2)
            s.insert(i);
        benchmark::DoNotOptimize(s.format());
    }
}
BENCHMARK(idset_encode_every_other_1e6)->Unit(benchmark::kMillisecond);

void idset_decode_every_other_1e6(benchmark::State& state) {
    const std::string text = every_other(1000000);
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::model::decode_idset(text));
}
BENCHMARK(idset_decode_every_other_1e6)->Unit(benchmark::kMillisecond);

void hostlist_encode_1e6_hosts(benchmark::State& state) {
    std::vector<std::string> names;
    for (int i = 0; i < 2000000; i += 2)
        names.push_back("node" + std::to_string(i));
    for (auto _ : state) {
        jobspec::Hostlist h;
        for (const auto& n : names)
            h.append(n);
        benchmark::DoNotOptimize(h.encode());
    }
}
BENCHMARK(hostlist_encode_1e6_hosts)->Unit(benchmark::kMillisecond);

void hostlist_decode_1e6_hosts(benchmark::State& state) {
    const std::string text = "node[" + every_other(1000000) + "]";
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::model::decode_hostlist(text));
}
BENCHMARK(hostlist_decode_1e6_hosts)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
