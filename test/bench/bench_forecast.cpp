// Forecast benchmarks (issue 58): every pending job of an instance of El Capitan's size,
// 11,000 nodes of 96 cores and 4 GPUs, 2,000 running jobs and 10,000 pending ones, under
// each scheduler whose order jobspec knows.
//   build-release/test/bench/bench-forecast --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "model/decoders.hpp"
#include <jobspec/document.hpp>
#include <jobspec/forecast.hpp>

#include <boost/json/parse.hpp>

namespace {


std::string job(std::uint64_t node_count, double duration, bool ssd) {
    return "{\"version\":1,\"resources\":[{\"type\":\"node\",\"count\":" +
           std::to_string(node_count) +
           ",\"exclusive\":true,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\","
           "\"with\":[{\"type\":\"core\",\"count\":96},{\"type\":\"gpu\",\"count\":4}]}]}],"
           "\"tasks\":[{\"command\":[\"app\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
           "\"attributes\":{\"system\":{\"duration\":" +
           std::to_string(duration) +
           (ssd ? ",\"constraints\":{\"properties\":[\"ssd\"]}" : "") + "}}}";
}

/// The instance at `scale` 10 (El Capitan's size): node[0-10999], a quarter with the
/// property ssd, 100 drained; 2,000 running jobs of 1–8 nodes ending over the next day;
/// 10,000 pending jobs of 1–64 nodes (a few of 2,000), of 1–12 hours, one in ten asking
/// for ssd, one in fifty held. At scale 1, a tenth of each.
std::shared_ptr<const jobspec::InstanceState> instance(jobspec::SchedulerSetup setup,
                                                       std::uint64_t scale) {
    const std::uint64_t nodes = 1100 * scale;
    auto s = std::make_shared<jobspec::InstanceState>();
    s->now = 1.8e9;
    s->all.add(jobspec::IdSet::range(0, nodes - 1), jobspec::IdSet::range(0, 95),
               jobspec::IdSet::range(0, 3));
    s->all.set_nodelist(
        *jobspec::model::decode_hostlist("elcap[0-" + std::to_string(nodes - 1) + "]"));
    s->all.set_property("ssd", jobspec::IdSet::range(0, nodes / 4 - 1));
    const std::uint64_t drained = nodes / 2;
    s->down = jobspec::IdSet::range(drained, drained + 10 * scale - 1);
    for (std::uint64_t r = drained; r < drained + 10 * scale; ++r)
        s->drained[r] = "bad dimm";
    std::mt19937_64 random(58);
    std::uint64_t next_rank = 0;
    for (std::uint64_t i = 0; i < 200 * scale; ++i) {
        const std::uint64_t n = 1 + random() % 8;
        if (next_rank + n >= nodes)
            break;
        if (next_rank < drained + 10 * scale && next_rank + n > drained)
            next_rank = drained + 10 * scale;
        jobspec::RunningJob r;
        r.id = 1000000 + i;
        r.r.add(jobspec::IdSet::range(next_rank, next_rank + n - 1),
                jobspec::IdSet::range(0, 95), jobspec::IdSet::range(0, 3));
        r.end = s->now + 60 + static_cast<double>(random() % 86400);
        next_rank += n;
        s->running.push_back(std::move(r));
    }
    for (std::uint64_t i = 0; i < 1000 * scale; ++i) {
        jobspec::PendingJob p;
        p.id = 2000000 + i;
        p.t_submit = s->now - 10000 + static_cast<double>(i);
        p.priority = 16 + static_cast<std::int64_t>(random() % 4);
        if (random() % 50 == 0)
            p.priority = p.urgency = 0;
        const std::uint64_t n = random() % 500 == 0 ? 200 * scale : 1 + random() % 64;
        auto js = jobspec::read_jobspec(
            job(n, 3600.0 * static_cast<double>(1 + random() % 12), random() % 10 == 0));
        p.jobspec = std::make_shared<const jobspec::Jobspec>(std::move(js).value());
        s->pending.push_back(std::move(p));
    }
    s->scheduler = std::move(setup);
    return s;
}

/// One forecast of the instance at scale state.range(0), made at once.
void forecast(benchmark::State& state, jobspec::SchedulerSetup setup) {
    const auto s = instance(std::move(setup), static_cast<std::uint64_t>(state.range(0)));
    std::size_t started = 0;
    for (auto _ : state) {
        jobspec::ForecastRun run(s);
        while (!run.advance(std::uint64_t{1} << 40)) {
        }
        started = 0;
        for (const auto& j : run.result().jobs)
            started += j.start.has_value();
        benchmark::DoNotOptimize(started);
    }
    state.counters["estimates"] = static_cast<double>(started);
}

jobspec::SchedulerSetup fluxion(std::string_view policy) {
    const auto params = boost::json::parse("{\"queue-policy\":\"" + std::string(policy) + "\"}");
    return jobspec::scheduler_setup("sched-fluxion-qmanager", {}, &params);
}

// El Capitan's size (10); Fluxion's backfill policies at a tenth of it too (1).
BENCHMARK_CAPTURE(forecast, sched_simple, jobspec::scheduler_setup("sched-simple"))
    ->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast, sched_backfill, jobspec::scheduler_setup("sched-backfill"))
    ->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast, fluxion_fcfs, fluxion("fcfs"))->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast, fluxion_easy, fluxion("easy"))
    ->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast, fluxion_conservative, fluxion("conservative"))
    ->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
