// Shape compiler benchmarks: shape text -> canonical JSON text, whole and by stage.
//   meson setup build-release --buildtype=release && ninja -C build-release
//   build-release/test/bench/bench-shape --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <string>

#include <benchmark/benchmark.h>
#include <boost/json/parse.hpp>

#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/shape_cache.hpp>

#include "lower/shape_lowering.hpp"
#include "shape_samples.hpp"
#include "sema/canonical_resources.hpp"
#include "syntax/shape_parser.hpp"

namespace {

using bench::large_shape;
using bench::small_shape;

std::string compile_to_json(const std::string& shape) {
    return jobspec::to_json_text(jobspec::compile_shape(shape).value());
}

void shape_to_json(benchmark::State& state, const std::string& shape) {
    for (auto _ : state)
        benchmark::DoNotOptimize(compile_to_json(shape));
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(shape.size()));
}
BENCHMARK_CAPTURE(shape_to_json, small, small_shape);
BENCHMARK_CAPTURE(shape_to_json, vertices_50, large_shape());

/// Throughput on 1 and 2 threads (items_per_second counts all threads; real time).
BENCHMARK_CAPTURE(shape_to_json, small_threads, small_shape)->Threads(1)->Threads(2)->UseRealTime();

/// The same shape again, answered by an opt-in ShapeCache.
void shape_cache_hit(benchmark::State& state) {
    jobspec::ShapeCache cache;
    (void)cache.json(small_shape);
    for (auto _ : state)
        benchmark::DoNotOptimize(cache.json(small_shape));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(shape_cache_hit);

void stage_parse(benchmark::State& state, const std::string& shape) {
    for (auto _ : state) {
        jobspec::Diagnostics d;
        benchmark::DoNotOptimize(jobspec::syntax::parse_shape(shape, {}, d));
    }
}
BENCHMARK_CAPTURE(stage_parse, small, small_shape);
BENCHMARK_CAPTURE(stage_parse, vertices_50, large_shape());

void stage_lower_and_check(benchmark::State& state, const std::string& shape) {
    jobspec::Diagnostics d;
    const auto ast = jobspec::syntax::parse_shape(shape, {}, d)->ast;
    for (auto _ : state) {
        jobspec::Diagnostics diags;
        auto resources = jobspec::lower::lower_shape(ast, "default", diags);
        jobspec::sema::check_resources(resources, "", diags);
        benchmark::DoNotOptimize(resources);
    }
}
BENCHMARK_CAPTURE(stage_lower_and_check, small, small_shape);
BENCHMARK_CAPTURE(stage_lower_and_check, vertices_50, large_shape());

void stage_emit(benchmark::State& state, const std::string& shape) {
    const auto resources = jobspec::compile_shape(shape).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(resources));
}
BENCHMARK_CAPTURE(stage_emit, small, small_shape);
BENCHMARK_CAPTURE(stage_emit, vertices_50, large_shape());

/// The same text through a boost::json::value first (what YAML and --pretty use).
void stage_emit_via_value(benchmark::State& state, const std::string& shape) {
    const auto resources = jobspec::compile_shape(shape).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(jobspec::to_json_value(resources)));
}
BENCHMARK_CAPTURE(stage_emit_via_value, small, small_shape);
BENCHMARK_CAPTURE(stage_emit_via_value, vertices_50, large_shape());

/// Baseline: Boost.JSON parsing the JSON text our compiler writes for the same shape.
void baseline_boost_json_parse(benchmark::State& state, const std::string& shape) {
    const std::string json = compile_to_json(shape);
    for (auto _ : state)
        benchmark::DoNotOptimize(boost::json::parse(json));
}
BENCHMARK_CAPTURE(baseline_boost_json_parse, small, small_shape);
BENCHMARK_CAPTURE(baseline_boost_json_parse, vertices_50, large_shape());

} // namespace

BENCHMARK_MAIN();
