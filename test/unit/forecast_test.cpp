// The forecast: instance states read from JSON, each scheduler's order and rules run
// forward, and the verdicts and estimates that come out (docs/SCHEDULERS.md).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <boost/json/parse.hpp>

#include <jobspec/document.hpp>
#include <jobspec/forecast.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/forecast_text.hpp>
#include <jobspec/text.hpp>

namespace {

using jobspec::Verdict;

/// fake[0-2], 4 cores each; fake2 alone has ssd. fake0 drained for maintenance; job 1
/// holds fake2 until t=1600. The forecast is made at t=1000.
std::string instance(const std::string& scheduler, const std::string& pending,
                     const std::string& extra = "") {
    return R"({"now": 1000,
      "R": {"version": 1, "execution": {"R_lite": [{"rank": "0-2", "children": {"core": "0-3"}}],
            "nodelist": ["fake[0-2]"], "properties": {"ssd": "2"}, "starttime": 0, "expiration": 0}},
      "drained": {"0": "maintenance"},
      "scheduler": )" +
           scheduler + R"(,
      "running": [{"id": 1, "expiration": 1600,
                   "R": {"version": 1, "execution": {"R_lite": [{"rank": "2", "children": {"core": "0-3"}}],
                         "nodelist": ["fake2"]}}}],
      "pending": [)" +
           pending + "]" + extra + "}";
}

/// A pending job of `nodes` whole nodes (or `tasks` one-core tasks), as flux submit makes it.
std::string job(int id, const std::string& resources, double duration = 0,
                const std::string& system = "", std::int64_t priority = 16) {
    return R"({"id": )" + std::to_string(id) +
           R"(, "state": "sched", "priority": )" + std::to_string(priority) +
           R"(, "t_submit": )" + std::to_string(900 + id) + R"(, "jobspec": {"version": 1,
      "resources": )" + resources + R"(,
      "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
      "attributes": {"system": {"duration": )" +
           std::to_string(duration) + system + "}}}}";
}

const std::string one_node = R"([{"type": "node", "count": 1, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])";
const std::string three_nodes = R"([{"type": "node", "count": 3, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])";
const std::string one_core = R"([{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}])";
const std::string needs_ssd = R"(, "constraints": {"properties": ["ssd"]})";

jobspec::Forecast run(const std::string& text) {
    auto state = jobspec::read_instance_state(text);
    REQUIRE_MESSAGE(state.ok(), jobspec::to_valid_utf8(state.diagnostics().begin()->message));
    return jobspec::forecast(state.value());
}

const jobspec::JobForecast& of(const jobspec::Forecast& f, std::uint64_t id) {
    for (const auto& j : f.jobs)
        if (j.id == id)
            return j;
    FAIL("no job " << id);
    return f.jobs.front();
}

/// B needs ssd (held by job 1), C all three nodes (fake0 is drained), E one core.
std::string fifo_case(const std::string& scheduler, double e_duration = 0) {
    return instance(scheduler, job(2, one_node, 0, needs_ssd) + "," + job(3, three_nodes) + "," +
                                   job(5, one_core, e_duration));
}

} // namespace

TEST_CASE("forecast - a jobspec's dependencies named as flux-core's dependency-add events") {
    const auto js = jobspec::read_jobspec(R"({"version":1,"resources":[{"type":"slot","count":1,
        "label":"task","with":[{"type":"core","count":1}]}],"tasks":[{"command":["a"],
        "slot":"task","count":{"per_slot":1}}],"attributes":{"system":{"dependencies":[
        {"scheme":"afterok","value":"fABC"},{"scheme":"after","value":"123"},
        {"scheme":"afterstart","value":"1"},{"scheme":"afterany","value":"2"},
        {"scheme":"afternotok","value":"3"},{"scheme":"afterexcept","value":"4"},
        {"scheme":"begin-time","value":"1700000000.5"},{"scheme":"singleton","value":""},
        {"scheme":"custom","value":"x"}]}}})");
    REQUIRE(js.ok());
    CHECK(jobspec::dependency_descriptions(js.value()) ==
          std::vector<std::string>{"after-success=fABC", "after-start=123", "after-start=1",
                                   "after-finish=2", "after-failure=3", "after-except=4",
                                   "begin-time=1700000000.500", "singleton", "custom=x"});
    const auto none = jobspec::read_jobspec(R"({"version":1,"resources":[{"type":"slot",
        "count":1,"label":"task","with":[{"type":"core","count":1}]}],"tasks":[{"command":
        ["a"],"slot":"task","count":{"per_slot":1}}],"attributes":{"system":{}}})");
    REQUIRE(none.ok());
    CHECK(jobspec::dependency_descriptions(none.value()).empty());
}

TEST_CASE("forecast - sched-simple is strict FIFO: E waits behind C, which needs drained fake0") {
    const auto f = run(fifo_case(R"({"name": "sched-simple"})"));
    const auto& b = of(f, 2);
    CHECK(b.verdict == Verdict::waiting);
    REQUIRE(b.start);
    CHECK(*b.start == doctest::Approx(1600.03));
    CHECK(b.nodes.format() == "2");
    CHECK(b.after == std::vector<std::uint64_t>{1});
    const auto& c = of(f, 3);
    CHECK(c.verdict == Verdict::down);
    CHECK_FALSE(c.start);
    CHECK(c.no_estimate == jobspec::NoEstimate::down);
    CHECK(c.down_needed.format() == "0");
    const auto& e = of(f, 5);
    CHECK(e.verdict == Verdict::down);
    CHECK_FALSE(e.start);
    CHECK(e.no_estimate == jobspec::NoEstimate::behind);
    CHECK(e.waits_behind == std::vector<std::uint64_t>{3});
    CHECK(e.down_needed.format() == "0");
    auto state = jobspec::read_instance_state(fifo_case(R"({"name": "sched-simple"})")).value();
    jobspec::ForecastTextOptions text;
    text.ascii_ids = true;
    text.utc = true;
    CHECK(jobspec::forecast_summary(e, state, text) ==
          "waits behind f4, which waits for drained fake0 (maintenance): no estimate until it "
          "is undrained");
    CHECK(jobspec::forecast_summary(b, state, text) ==
          "starts by 00:26:41 (estimated, on fake2, after f2 ends)");
    CHECK(jobspec::forecast_reason(e, state, text) ==
          "waits behind f4 (drained fake0 (maintenance))");
}

TEST_CASE("forecast - sched-backfill: a job with a time limit backfills, one without waits") {
    const auto limited = run(fifo_case(R"({"name": "sched-backfill"})", 60));
    CHECK(of(limited, 5).verdict == Verdict::next);
    CHECK(*of(limited, 5).start == 1000);
    const auto too_long = run(fifo_case(R"({"name": "sched-backfill"})", 601));
    CHECK(of(too_long, 5).verdict != Verdict::next);
    const auto unlimited = run(fifo_case(R"({"name": "sched-backfill"})"));
    const auto& e = of(unlimited, 5);
    CHECK_FALSE(e.start);
    CHECK(e.waits_behind == std::vector<std::uint64_t>{3});
    // Behind the unlimited one, a job short enough backfills; the unlimited still waits.
    const auto mixed = run(instance(R"({"name": "sched-backfill"})",
                                    job(2, one_node, 0, needs_ssd) + "," + job(3, three_nodes) +
                                        "," + job(5, one_core) + "," + job(6, one_core, 60)));
    CHECK_FALSE(of(mixed, 5).start);
    REQUIRE(of(mixed, 6).start);
    CHECK(*of(mixed, 6).start == 1000);
}

TEST_CASE("forecast - Fluxion: fcfs waits behind the head; easy backfills off the reservation") {
    const auto fcfs = run(fifo_case(R"({"name": "sched-fluxion-qmanager"})"));
    // C asks three nodes with two up: Fluxion refuses it when it comes to it.
    CHECK(of(fcfs, 3).verdict == Verdict::never);
    // fcfs: B heads the line until job 1 ends; then C is refused and E starts.
    REQUIRE(of(fcfs, 5).start);
    CHECK(*of(fcfs, 5).start == 1600);
    const auto easy = run(fifo_case(
        R"({"name": "sched-fluxion-qmanager", "fluxion": {"params": {"queue-policy": "easy"}}})"));
    // B holds the reservation of fake2 from 1600; E takes fake1 now, with no time limit.
    CHECK(of(easy, 5).verdict == Verdict::next);
    CHECK(of(easy, 5).nodes.format() == "1");
}

TEST_CASE("forecast - jobs without a time limit: no estimate behind them, and why") {
    const std::string text = R"({"now": 0,
      "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}],
            "nodelist": ["n0"]}},
      "running": [{"id": 7, "expiration": 0,
                   "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}], "nodelist": ["n0"]}}}],
      "pending": [)" + job(8, one_core, 10) +
                             "," + job(9, one_core, 10) + "]}";
    const auto f = run(text);
    const auto& first = of(f, 8);
    CHECK(first.verdict == Verdict::waiting);
    CHECK(first.no_estimate == jobspec::NoEstimate::unending);
    CHECK(first.after == std::vector<std::uint64_t>{7});
    const auto& second = of(f, 9);
    CHECK(second.no_estimate == jobspec::NoEstimate::behind);
    CHECK(second.waits_behind == std::vector<std::uint64_t>{8});
}

TEST_CASE("forecast - FIFO in time: each job after the one ahead, as running jobs end") {
    // Two 4-core nodes, both busy until 100 and 200; three 4-core jobs of 50 s.
    const std::string four = R"([{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 4}]}])";
    const std::string text = R"({"now": 0,
      "R": {"version": 1, "execution": {"R_lite": [{"rank": "0-1", "children": {"core": "0-3"}}],
            "nodelist": ["n[0-1]"]}},
      "running": [
        {"id": 1, "expiration": 100, "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}], "nodelist": ["n0"]}}},
        {"id": 2, "expiration": 200, "R": {"version": 1, "execution": {"R_lite": [{"rank": "1", "children": {"core": "0-3"}}], "nodelist": ["n1"]}}}],
      "pending": [)" + job(3, four, 50) +
                             "," + job(4, four, 50) + "," + job(5, four, 50) + "]}";
    const auto f = run(text);
    CHECK(*of(f, 3).start == doctest::Approx(100.03));
    CHECK(*of(f, 4).start == doctest::Approx(150.06));
    CHECK(*of(f, 5).start == doctest::Approx(200.03));
    CHECK(of(f, 4).after == std::vector<std::uint64_t>{3});
    // Two jobs hold the nodes and end at different times: job 3 is told the earlier end.
    auto state = jobspec::read_instance_state(text).value();
    jobspec::ForecastTextOptions words;
    words.ascii_ids = true;
    words.utc = true;
    CHECK(jobspec::forecast_summary(of(f, 3), state, words) ==
          "starts by 00:01:41 (estimated, on n0, after f2 ends)");
    // Higher priority goes first.
    const std::string reordered = R"({"now": 0,
      "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}],
            "nodelist": ["n0"]}},
      "pending": [)" + job(3, four, 50, "", 10) +
                                  "," + job(4, four, 50, "", 20) + "]}";
    const auto g = run(reordered);
    CHECK(*of(g, 4).start == 0);
    CHECK(*of(g, 3).start == doctest::Approx(50.03));
    CHECK(of(g, 3).waits_behind.empty()); // it does not fit now: it waits for job 4's end
}

TEST_CASE("forecast - cores two running jobs both name are free when the later ends") {
    // A state written by hand: jobs 1 and 2 both name n0's cores 0-1, job 1 until 100 and
    // job 2 until 50. A job of 4 cores starts when both have ended, and says after which.
    const std::string four = R"([{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 4}]}])";
    const std::string text = R"({"now": 0,
      "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}],
            "nodelist": ["n0"]}},
      "running": [
        {"id": 1, "expiration": 100, "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}], "nodelist": ["n0"]}}},
        {"id": 2, "expiration": 50, "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}], "nodelist": ["n0"]}}}],
      "pending": [)" + job(3, four, 10) + "]}";
    const auto f = run(text);
    REQUIRE(of(f, 3).start);
    CHECK(*of(f, 3).start == doctest::Approx(100.03));
    CHECK(of(f, 3).after == std::vector<std::uint64_t>{1});
}

TEST_CASE("forecast - held, blocked and stopped-queue jobs are not scheduled") {
    std::string held = job(2, one_core, 10);
    held.replace(held.find("\"priority\": 16"), 14, "\"priority\": 0");
    std::string depend = job(3, one_core, 10);
    depend.replace(depend.find("\"sched\""), 7, "\"depend\"");
    const auto f = run(instance(R"({"name": "sched-simple"})", held + "," + depend));
    CHECK(of(f, 2).verdict == Verdict::held);
    CHECK(of(f, 3).verdict == Verdict::blocked);
    CHECK(of(f, 2).no_estimate == jobspec::NoEstimate::not_scheduled);
}

TEST_CASE("forecast - a job that can never run, and another scheduler") {
    const std::string huge = R"([{"type": "node", "count": 9, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])";
    const auto f = run(instance(R"({"name": "sched-simple"})", job(2, huge) + "," + job(3, one_core)));
    CHECK(of(f, 2).verdict == Verdict::never);
    REQUIRE_FALSE(of(f, 2).diagnostics.empty());
    CHECK(of(f, 2).diagnostics.begin()->code == jobspec::Code::jobspec_unsatisfiable);
    CHECK(of(f, 3).verdict == Verdict::next); // refused, it is out of the way
    const auto g = run(instance(R"({"name": "sched-mine"})", job(2, huge) + "," + job(3, one_core)));
    CHECK(g.order_unknown == "sched-mine: jobspec does not know its order");
    CHECK(of(g, 2).verdict == Verdict::never);
    CHECK(of(g, 3).verdict == Verdict::waiting);
    CHECK_FALSE(of(g, 3).start);
    CHECK(of(g, 3).no_estimate == jobspec::NoEstimate::unknown);
}

TEST_CASE("forecast - in slices, the same as at once") {
    const std::string text = fifo_case(R"({"name": "sched-simple"})");
    auto state = std::make_shared<const jobspec::InstanceState>(
        jobspec::read_instance_state(text).value());
    jobspec::ForecastRun run_in_slices(state);
    int slices = 0;
    while (!run_in_slices.advance(3))
        ++slices;
    CHECK(slices > 3);
    const auto whole = jobspec::forecast(*state);
    REQUIRE(run_in_slices.result().jobs.size() == whole.jobs.size());
    for (std::size_t i = 0; i < whole.jobs.size(); ++i) {
        CHECK(run_in_slices.result().jobs[i].verdict == whole.jobs[i].verdict);
        CHECK(run_in_slices.result().jobs[i].start == whole.jobs[i].start);
    }
}

TEST_CASE("forecast - the instance's state is read with located errors") {
    auto bad = jobspec::read_instance_state(R"({"R": 5, "pending": {}})");
    REQUIRE_FALSE(bad.ok());
    bool now_missing = false, pending_bad = false;
    for (const auto& d : bad.diagnostics()) {
        now_missing = now_missing || d.location.pointer == "/now";
        pending_bad = pending_bad || d.location.pointer == "/pending";
    }
    CHECK(now_missing);
    CHECK(pending_bad);
    // A jobspec that cannot be read is kept, with its problem: the job is unknown.
    const auto f = run(instance(R"({"name": "sched-simple"})",
                                R"({"id": 2, "state": "sched", "jobspec": {"version": 1}})"));
    CHECK(of(f, 2).verdict != Verdict::next);
}

TEST_CASE("forecast - scheduler setups from their arguments and Fluxion's params") {
    CHECK(jobspec::scheduler_setup("sched-simple").queue_depth == 8);
    CHECK(jobspec::scheduler_setup("sched-fifo", {"queue-depth=unlimited"}).queue_depth == 0);
    CHECK(jobspec::scheduler_setup("sched-backfill").kind == jobspec::SchedulerKind::backfill);
    CHECK(jobspec::scheduler_setup("sched-backfill", {"mode=limited=3"}).queue_depth == 3);
    const auto params = boost::json::parse(
        R"({"params": {"queue-policy": "hybrid", "queue-params": "queue-depth=100",
            "policy-params": "reservation-depth=5", "debug": {"queue-policy": "fcfs"}}})");
    const auto s = jobspec::scheduler_setup("sched-fluxion-qmanager", {}, &params);
    CHECK(s.kind == jobspec::SchedulerKind::fluxion);
    CHECK(s.fluxion_queues.at("default").policy == jobspec::FluxionPolicy::hybrid);
    CHECK(s.fluxion_queues.at("default").queue_depth == 100);
    CHECK(s.fluxion_queues.at("default").reservation_depth == 5);
    CHECK(s.fluxion_queues.at("debug").policy == jobspec::FluxionPolicy::fcfs);
    CHECK(jobspec::scheduler_setup("sched-other").kind == jobspec::SchedulerKind::unknown);
}

TEST_CASE("forecast - Fluxion refuses a constrained job whose nodes jobs without a limit hold") {
    // flux-why's seed 20261129, case 17: node[0-3], ssd and a GPU on node[2-3], node2
    // drained; a job without a time limit holds node0, node1 and node3 whole. A job asking
    // two ssd nodes is not waiting for node2: Fluxion refuses it at once, as its node3 is
    // held for ever (its satisfiability counts the nodes free at the end of its plans).
    const std::string r = R"({"version": 1, "execution": {"R_lite": [
        {"rank": "0-1", "children": {"core": "0-3"}}, {"rank": "2-3", "children": {"core": "0-3", "gpu": "0"}}],
        "nodelist": ["node[0-3]"], "properties": {"ssd": "2-3"}}})";
    const std::string held = R"({"version": 1, "execution": {"R_lite": [
        {"rank": "0-1", "children": {"core": "0-3"}}, {"rank": "3", "children": {"core": "0-3", "gpu": "0"}}],
        "nodelist": ["node[0-1,3]"]}})";
    const std::string two_ssd = R"([{"type": "node", "count": 2, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}, {"type": "gpu", "count": 1}]}]}])";
    const auto text = [&](const std::string& holder_end) {
        return R"({"now": 0, "R": )" + r + R"(, "drained": {"2": "generated"},
          "scheduler": {"name": "sched-fluxion-qmanager"},
          "running": [{"id": 1, "expiration": )" + holder_end + R"(, "R": )" + held + R"(}],
          "pending": [)" + job(2, two_ssd, 0, R"(, "constraints": {"properties": ["ssd"]})") + "]}";
    };
    const auto unlimited = run(text("0"));
    CHECK(of(unlimited, 2).verdict == Verdict::never);
    CHECK_FALSE(of(unlimited, 2).start);
    // It names the job that holds the nodes for ever, and the reason says so.
    CHECK(of(unlimited, 2).after == std::vector<std::uint64_t>{1});
    auto state = jobspec::read_instance_state(text("0")).value();
    CHECK(jobspec::forecast_reason(of(unlimited, 2), state).starts_with("never: refused while "));
    // With a time limit on the holder, node3 comes free in Fluxion's plans: the job waits
    // for drained node2.
    const auto limited = run(text("100"));
    CHECK(of(limited, 2).verdict == Verdict::down);
    CHECK(of(limited, 2).down_needed.format() == "2");
}

namespace {

/// node[0-255], 4 cores each, rank 1 drained, under `scheduler`: `stalls` jobs of a slot of
/// 250 sibling node vertices (placing one takes tenths of a second unbounded), behind a head
/// job of all 256 nodes that waits for rank 1 when `head`.
std::string stall_instance(int stalls, bool head, const std::string& scheduler = "sched-simple") {
    std::string nodes;
    for (int i = 0; i < 250; ++i)
        nodes += (i ? "," : "") + std::string(R"({"type":"node","count":{"min":1,"max":)") +
                 std::to_string(i * 7 % 256 + 1) + R"(},"with":[{"type":"core","count":1}]})";
    const std::string stall = R"([{"type":"slot","count":1,"label":"task","with":[)" + nodes + "]}]";
    std::string pending = head ? job(2, R"([{"type": "node", "count": 256, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])") : "";
    for (int i = 0; i < stalls; ++i)
        pending += (pending.empty() ? "" : ",") + job(10 + i, stall, 60);
    return R"({"now": 1000, "R": {"version": 1, "execution": {"R_lite": [{"rank": "0-255",
      "children": {"core": "0-3"}}], "nodelist": ["node[0-255]"]}}, "drained": {"1": "x"},
      "scheduler": {"name": ")" + scheduler + R"("}, "pending": [)" + pending + "]}";
}

std::shared_ptr<const jobspec::InstanceState> state_of(const std::string& text) {
    return std::make_shared<const jobspec::InstanceState>(
        jobspec::read_instance_state(text).value());
}

} // namespace

TEST_CASE("forecast - an explanation over budget is unknown, made once, within a bounded call") {
    // A scheduler whose order is not known: each job gets the matcher's verdict.
    const auto state = state_of(stall_instance(3, false, "sched-mine"));
    jobspec::ForecastOptions options;
    options.max_steps = 20000;
    options.explained = std::make_shared<jobspec::Explanations>();
    jobspec::ForecastRun first(state, options);
    // Each explanation takes the whole of a call's steps: no call makes two.
    int calls = 0;
    while (!first.advance(20000))
        ++calls;
    CHECK(calls >= 3);
    for (std::uint64_t id : {10, 11, 12}) {
        const auto& f = of(first.result(), id);
        CHECK(f.verdict == Verdict::unknown);
        REQUIRE_FALSE(f.diagnostics.empty());
        CHECK(f.diagnostics.begin()->code == jobspec::Code::match_budget);
    }
    CHECK(options.explained->size() == 3);
    // The next forecast takes what is kept rather than explaining again: a verdict planted
    // for job 10 is what it says.
    jobspec::Diagnostics planted;
    planted.add(jobspec::Code::jobspec_unsatisfiable, "planted", jobspec::Location{});
    options.explained->keep(10, planted);
    jobspec::ForecastRun second(state, options);
    while (!second.advance(20000)) {
    }
    CHECK(of(second.result(), 10).verdict == Verdict::never);
    CHECK(of(second.result(), 11).verdict == Verdict::unknown);
    CHECK(options.explained->size() == 3);
    options.explained->forget(10);
    CHECK(options.explained->size() == 2);
    options.explained->clear();
    CHECK(options.explained->size() == 0);
}

TEST_CASE("forecast - jobs behind one that never starts are not explained") {
    jobspec::ForecastOptions options;
    options.max_steps = 20000;
    options.explained = std::make_shared<jobspec::Explanations>();
    jobspec::ForecastRun run(state_of(stall_instance(3, true)), options);
    while (!run.advance(20000)) {
    }
    CHECK(of(run.result(), 2).verdict == Verdict::down);
    for (std::uint64_t id : {10, 11, 12}) {
        CHECK(of(run.result(), id).verdict == Verdict::down);
        CHECK(of(run.result(), id).waits_behind == std::vector<std::uint64_t>{2});
    }
    CHECK(options.explained->size() == 1); // the head alone, which fits all of R
}

TEST_CASE("forecast - Fluxion's end of plans as an expiration is no time limit") {
    // Fluxion writes its graph's end as the expiration of a job without a time limit.
    for (const char* end : {"3153600000", "9223372036"}) {
        const std::string text = R"({"now": 1000, "R": {"version": 1, "execution": {"R_lite":
          [{"rank": "0", "children": {"core": "0-3"}}], "nodelist": ["fake0"]}},
          "scheduler": {"name": "sched-fluxion-qmanager"},
          "running": [{"id": 1, "expiration": )" + std::string(end) + R"(, "R": {"version": 1,
            "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}], "nodelist": ["fake0"]}}}],
          "pending": [)" + job(2, one_node, 60) + "]}";
        const auto f = run(text);
        CHECK_FALSE(of(f, 2).start);
        CHECK(of(f, 2).no_estimate == jobspec::NoEstimate::unending);
        CHECK(of(f, 2).after == std::vector<std::uint64_t>{1});
    }
}

TEST_CASE("forecast - a job whose dependency is met in the forecast joins the line then") {
    // Job 2 waits for job 1 to end (afterany); jobs 3 and 4, behind it in FIFO order, need
    // the same two nodes. Job 1's end reaches the scheduler before job 2 does: job 3 starts
    // then (1600-1660); job 2, in line from then on, goes before job 4 (1660-1760).
    const std::string two_nodes = R"([{"type": "node", "count": 2, "exclusive": true, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])";
    std::string dependent = job(2, two_nodes, 100);
    const std::string sched = R"("state": "sched")";
    dependent.replace(dependent.find(sched), sched.size(),
                      R"("state": "depend", "dependencies": ["after-finish=ƒ2"])"); // job 1 in F58
    const std::string behind = job(3, two_nodes, 60) + "," + job(4, two_nodes, 10);
    const auto f = run(instance(R"({"name": "sched-simple"})", dependent + "," + behind));
    CHECK(of(f, 2).verdict == Verdict::blocked);
    REQUIRE(of(f, 3).start);
    CHECK(*of(f, 3).start == doctest::Approx(1600.03));
    REQUIRE(of(f, 4).start);
    CHECK(*of(f, 4).start == doctest::Approx(1760.09));
    // A dependency the forecast cannot see met (after-success) leaves job 4 at 1660.
    dependent.replace(dependent.find("after-finish"), std::string("after-finish").size(),
                      "after-success");
    const auto g = run(instance(R"({"name": "sched-simple"})", dependent + "," + behind));
    REQUIRE(of(g, 4).start);
    CHECK(*of(g, 4).start == doctest::Approx(1660.06));
}

TEST_CASE("forecast - the schedule drawn: a row per node, each job where it starts, names escaped") {
    // fake0 drained; job 1 holds fake2 until 1600; job 2 starts now on fake1, job 3
    // (ssd) on fake2 after job 1.
    const auto drawn = [](const std::string& scheduler) {
        auto state = jobspec::read_instance_state(
            instance(scheduler, job(2, one_node, 100) + "," + job(3, one_core, 50, needs_ssd)));
        REQUIRE(state.ok());
        return jobspec::forecast_svg(jobspec::forecast(state.value()), state.value());
    };
    const std::string svg = drawn(R"({"name": "sched-simple"})");
    CHECK(svg.starts_with(R"(<svg xmlns="http://www.w3.org/2000/svg" width="860" height=")"));
    const auto height = svg.substr(svg.find("height=") + 8,
                                   svg.find('"', svg.find("height=") + 8) - svg.find("height=") - 8);
    CHECK(svg.find(R"(viewBox="0 0 860 )" + height + "\"") != std::string::npos);
    CHECK(svg.ends_with(" s</text>\n</svg>\n"));
    CHECK(svg.substr(svg.rfind("<text")).starts_with("<text x=\"840.0\" y=\""));
    CHECK(svg.substr(svg.rfind("<text")).find("text-anchor=\"end\"") != std::string::npos);
    CHECK(svg.find(">fake0 (drained)<") != std::string::npos);
    CHECK(svg.find(">fake1<") != std::string::npos);
    CHECK(svg.find(">fake2<") != std::string::npos);
    for (const std::uint64_t id : {1, 2, 3})
        CHECK(svg.find("<title>" + jobspec::encode_fluid(id, jobspec::FluidEncoding::f58) +
                       "</title>") != std::string::npos);
    const std::string strange = drawn(R"({"name": "sched-<x>&"})");
    CHECK(strange.find("sched-&lt;x&gt;&amp;") != std::string::npos);
    CHECK(strange.find("<x>") == std::string::npos);
}
