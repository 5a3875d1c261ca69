// Fluxion's graphs: reading JGF and matching on it (docs/PERFORMANCE.md, "Fluxion's
// graphs"), the rows resource-query's -e reports (its graph load time, and ELAPSE per match).
//   python3 dev/reference/fluxion_graphs.py /tmp/bench   (with RQ and FLUXSCHED set)
//   JOBSPEC_FLUXION_GRAPHS=/tmp/bench build-release/test/bench/bench-fluxion
// Each graph there (medium.json, sierra.json, large.json) is read once per row; a graph
// that is missing is skipped.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <jobspec/document.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

namespace {

std::string dir() {
    const char* d = std::getenv("JOBSPEC_FLUXION_GRAPHS");
    return d != nullptr ? d : "/tmp/bench";
}

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

jobspec::Limits big() {
    jobspec::Limits limits;
    limits.max_input_bytes = std::size_t{1} << 31;
    return limits;
}

/// The graph named, read once (null when the file is missing or does not read).
const jobspec::ResourceSet* graph(const std::string& name) {
    static std::map<std::string, std::unique_ptr<jobspec::ResourceSet>> read;
    auto& slot = read[name];
    if (!slot) {
        const auto text = slurp(dir() + "/" + name + ".json");
        if (text.empty())
            return nullptr;
        auto r = jobspec::read_resource_set(text, big());
        if (!r.ok())
            return nullptr;
        slot = std::make_unique<jobspec::ResourceSet>(std::move(r).value());
    }
    return slot.get();
}

void read_graph(benchmark::State& state, const std::string& name) {
    const auto text = slurp(dir() + "/" + name + ".json");
    if (text.empty()) {
        state.SkipWithError("no such graph (dev/reference/fluxion_graphs.py)");
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::read_resource_set(text, big()));
    state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

void match(benchmark::State& state, const std::string& name, const std::string& job) {
    const auto* r = graph(name);
    if (r == nullptr) {
        state.SkipWithError("no such graph (dev/reference/fluxion_graphs.py)");
        return;
    }
    jobspec::ReadOptions reading;
    reading.dialect = jobspec::Dialect::fluxion;
    const auto js = jobspec::read_jobspec(slurp(dir() + "/" + job + ".yaml"), reading);
    if (!js.ok()) {
        state.SkipWithError("the jobspec does not read");
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::match_jobspec(js.value(), *r));
    const auto a = jobspec::match_jobspec(js.value(), *r);
    state.counters["fits"] = a.ok() ? 1 : 0;
}

} // namespace

BENCHMARK_CAPTURE(read_graph, medium, "medium")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, medium_fits, "medium", "fits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, medium_small, "medium", "small")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, medium_explain, "medium", "explain")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(read_graph, sierra, "sierra")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(match, sierra_fits, "sierra", "fits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, sierra_small, "sierra", "small")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, sierra_explain, "sierra", "explain")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(read_graph, large, "large")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(match, large_fits, "large", "fits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, large_small, "large", "small")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match, large_explain, "large", "explain")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
