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

namespace {

/// R for n targets: 3 node types (in blocks), 5 properties, one compressed nodelist.
std::string mixed_r(std::uint64_t n) {
    jobspec::ResourceSet r;
    const std::uint64_t third = n / 3;
    r.add(jobspec::IdSet::range(0, third - 1), jobspec::IdSet::range(0, 47),
          jobspec::IdSet::range(0, 7));
    r.add(jobspec::IdSet::range(third, 2 * third - 1), jobspec::IdSet::range(0, 95), {});
    r.add(jobspec::IdSet::range(2 * third, n - 1), jobspec::IdSet::range(0, 63),
          jobspec::IdSet::range(0, 3));
    r.set_nodelist(*jobspec::Hostlist::parse("node[0-" + std::to_string(n - 1) + "]"));
    r.set_property("ssd", jobspec::IdSet::range(0, n / 2));
    r.set_property("amd-mi50@gpu", jobspec::IdSet::range(0, third - 1));
    r.set_property("bigmem", jobspec::IdSet::range(third, 2 * third - 1));
    r.set_property("+debug", jobspec::IdSet::range(n - 16, n - 1));
    jobspec::IdSet odd;
    for (std::uint64_t i = 1; i < n; i += 64)
        odd.insert(i, i + 31 < n ? i + 31 : n - 1);
    r.set_property("rack-a", odd);
    return jobspec::to_json_text(jobspec::to_json_value(r));
}

/// R for 10,000 targets that are all different: every rank its own cores, gpus and host
/// name (no run of names compresses), about 600 KB.
std::string different_r() {
    std::string lite;
    std::string hosts;
    for (int i = 0; i < 10000; ++i) {
        if (i > 0) {
            lite += ',';
            hosts += ',';
        }
        lite += "{\"rank\":\"" + std::to_string(i) + "\",\"children\":{\"core\":\"0-" +
                std::to_string(8 + i) + "\",\"gpu\":\"" + std::to_string(i % 8) + "\"}}";
        hosts += "\"h" + std::to_string((i * 7919) % 10007) + "x" + std::to_string(i % 97) + "\"";
    }
    return "{\"version\":1,\"execution\":{\"R_lite\":[" + lite + "],\"nodelist\":[" + hosts +
           "],\"properties\":{\"xx\":\"0-4999\"}}}";
}

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
        benchmark::DoNotOptimize(jobspec::IdSet::parse(text));
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
        benchmark::DoNotOptimize(jobspec::Hostlist::parse(text));
}
BENCHMARK(hostlist_decode_1e6_hosts)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
