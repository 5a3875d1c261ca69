// Dependency URI and job id benchmarks.
//   build-release/test/bench/bench-dependency --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include "model/decoders.hpp"
#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/fluid.hpp>

namespace {

void uri_to_checked_object(benchmark::State& state, const char* uri) {
    for (auto _ : state) {
        auto r = jobspec::parse_dependency(uri);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK_CAPTURE(uri_to_checked_object, afterok_f58, "afterok:ƒ2oLkTLb");
BENCHMARK_CAPTURE(uri_to_checked_object, string_options, "string:foo?type=out;scope=user");

void uri_to_json_text(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(
            jobspec::to_json_value(jobspec::parse_dependency("afterok:ƒ2oLkTLb").value())));
}
BENCHMARK(uri_to_json_text);

constexpr std::uint64_t id = 6731191091817518ULL;

void fluid_decode(benchmark::State& state, jobspec::FluidEncoding encoding) {
    const std::string text = jobspec::encode_fluid(id, encoding);
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::model::decode_fluid(text));
}
void fluid_encode(benchmark::State& state, jobspec::FluidEncoding encoding) {
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::encode_fluid(id, encoding));
}
#define JOBSPEC_FLUID_BENCH(e)                                                                     \
    BENCHMARK_CAPTURE(fluid_decode, e, jobspec::FluidEncoding::e);                                 \
    BENCHMARK_CAPTURE(fluid_encode, e, jobspec::FluidEncoding::e)
JOBSPEC_FLUID_BENCH(dec);
JOBSPEC_FLUID_BENCH(hex);
JOBSPEC_FLUID_BENCH(dothex);
JOBSPEC_FLUID_BENCH(kvs);
JOBSPEC_FLUID_BENCH(f58);
JOBSPEC_FLUID_BENCH(words);
JOBSPEC_FLUID_BENCH(emoji);

} // namespace

BENCHMARK_MAIN();
