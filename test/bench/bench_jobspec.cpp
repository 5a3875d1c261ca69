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

// example1 as JSON, with a constraint as flux run --requires writes one.
const std::string& constrained_json() {
    static const std::string text = [] {
        std::string t = example1_json();
        const std::string cwd = "\"cwd\":";
        return t.insert(t.find(cwd), R"("constraints":{"and":[{"hostlist":["node[0-1023]"]},)"
                                     R"({"not":[{"ranks":["0-3,7"]}]}]},)");
    }();
    return text;
}

void read_checked(benchmark::State& state, const std::string& text, bool flux = false) {
    jobspec::ReadOptions options;
    options.v1 = true;
    options.flux_instance = flux;
    options.flux_instance_size = flux ? 1024 : 0;
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

/// The same with a constraint, read as jobspec validate reads it and as the Flux plugins
/// do (with the flux-instance pass): what that pass costs.
void constrained_json_to_checked_model(benchmark::State& state) {
    read_checked(state, constrained_json());
}
BENCHMARK(constrained_json_to_checked_model);

void constrained_json_as_the_flux_plugins_read_it(benchmark::State& state) {
    read_checked(state, constrained_json(), true);
}
BENCHMARK(constrained_json_as_the_flux_plugins_read_it);

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
