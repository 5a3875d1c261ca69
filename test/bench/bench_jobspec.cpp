// Jobspec document benchmarks: text -> checked model (canonical + V1), YAML and JSON.
//   build-release/test/bench/bench-jobspec --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <string>

#include <benchmark/benchmark.h>
#include <boost/json/parse.hpp>
#include <yaml-cpp/yaml.h>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>

namespace {

// RFC 25 example1 (../shared/specs/data/spec_25/example1.yaml), byte for byte.
const std::string example1_yaml = R"(version: 1
resources:
  - type: node
    count: 4
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 2
tasks:
  - command: [ "app" ]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600.
    cwd: "/home/flux"
    environment:
      HOME: "/home/flux"
)";

const std::string& example1_json() {
    static const std::string text =
        jobspec::to_json_text(jobspec::to_json_value(jobspec::read_jobspec(example1_yaml).value()));
    return text;
}

void read_checked(benchmark::State& state, const std::string& text) {
    jobspec::ReadOptions options;
    options.v1 = true;
    for (auto _ : state) {
        auto r = jobspec::read_jobspec(text, options);
        if (!r.ok())
            state.SkipWithError("document did not validate");
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
}

void v1_yaml_to_checked_model(benchmark::State& state) {
    read_checked(state, example1_yaml);
}
BENCHMARK(v1_yaml_to_checked_model);

void v1_json_to_checked_model(benchmark::State& state) {
    read_checked(state, example1_json());
}
BENCHMARK(v1_json_to_checked_model);

/// Baseline: yaml-cpp building its node graph for the same text (no checks at all).
void baseline_yaml_cpp_load(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(YAML::Load(example1_yaml));
}
BENCHMARK(baseline_yaml_cpp_load);

/// Baseline: Boost.JSON parsing the same document as JSON (no checks at all).
void baseline_boost_json_parse(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(boost::json::parse(example1_json()));
}
BENCHMARK(baseline_boost_json_parse);

} // namespace

BENCHMARK_MAIN();
