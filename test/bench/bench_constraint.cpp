// Constraint benchmarks: RFC 35 query -> RFC 31 JSON, and matching against R.
//   build-release/test/bench/bench-constraint --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <boost/json/parse.hpp>
#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>

#include "r_samples.hpp"
#include "syntax/flux_query_parser.hpp"

namespace {

void query_to_json_text(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::to_json_text(jobspec::to_json_value(
            jobspec::parse_constraint_query("ssd and not host:foo[1-3]").value())));
}
BENCHMARK(query_to_json_text);

// The drop-in's C++ parts (python/src/flux_constraint.cpp): flux's reading of the query,
// and MiniConstraintParser's RFC 31 check of its result, term by term as it is made, or,
// when a term fails, of the whole as JSON.
void read_flux(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::syntax::parse_flux_query("ssd and not host:foo[1-3]"));
}
BENCHMARK(read_flux);

void check_requires_terms(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(jobspec::valid_constraint_operand("properties", "ssd"));
        benchmark::DoNotOptimize(jobspec::valid_constraint_operand("hostlist", "foo[1-3]"));
    }
}
BENCHMARK(check_requires_terms);

void check_requires_whole(benchmark::State& state) {
    const auto value = boost::json::parse(
        R"({"and":[{"properties":["ssd"]},{"not":[{"hostlist":["foo[1-3]"]}]}]})");
    for (auto _ : state)
        benchmark::DoNotOptimize(jobspec::constraint_from_json(value));
}
BENCHMARK(check_requires_whole);

void match(benchmark::State& state, const std::string& r_text, const std::string& query) {
    const auto r = jobspec::read_resource_set(r_text).value();
    const auto c = jobspec::parse_constraint_query(query).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(c.match(r));
    state.counters["matched"] = static_cast<double>(c.match(r).value().count());
}
// R with 10,000 targets all different: a property and a hostlist of names it has.
BENCHMARK_CAPTURE(match, different_10000_xx_and_not_hostlist, bench::different_r(),
                  "xx and not host:h0x0,h7919x1,h5831x2")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(match, mixed_100000_5_properties, bench::mixed_r(100000),
                  "(ssd|bigmem) and not rack-a and not host:node[100-199] | rank:0-9")
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
