// docs/SCHEDULERS.md rule by rule: the request a scheduler reads, which nodes each
// allocator takes, and each policy's order, reservations and depth, one small instance
// each (forecast_test.cpp has the whole cases).
#include <doctest/doctest.h>

#include <string>

#include <jobspec/forecast.hpp>
#include <jobspec/fluid.hpp>

namespace {

using jobspec::Verdict;

/// `nodes` nodes of 4 cores (node[2-3] of four also have a GPU and ssd when `gpus`).
std::string r_of(int nodes, bool gpus = false) {
    const std::string last = std::to_string(nodes - 1);
    if (!gpus)
        return R"({"version": 1, "execution": {"R_lite": [{"rank": "0-)" + last +
               R"(", "children": {"core": "0-3"}}], "nodelist": ["n[0-)" + last + R"(]"]}})";
    return R"({"version": 1, "execution": {"R_lite": [{"rank": "0-1", "children": {"core": "0-3"}},
        {"rank": "2-3", "children": {"core": "0-3", "gpu": "0"}}], "nodelist": ["n[0-3]"],
        "properties": {"ssd": "2-3"}}})";
}

std::string slot_job(int id, const std::string& resources, double duration,
                     const std::string& system = "", const std::string& extra = "") {
    return R"({"id": )" + std::to_string(id) + R"(, "state": "sched", "priority": 16,
      "t_submit": )" + std::to_string(id) + extra + R"(, "jobspec": {"version": 1,
      "resources": )" + resources + R"(,
      "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
      "attributes": {"system": {"duration": )" + std::to_string(duration) + system + "}}}}";
}

/// `count` slots of `cores` cores (and a GPU each with `gpu`), without nodes.
std::string slots(int count, int cores, bool gpu = false) {
    return R"([{"type": "slot", "count": )" + std::to_string(count) +
           R"(, "label": "task", "with": [{"type": "core", "count": )" + std::to_string(cores) +
           "}" + (gpu ? R"(, {"type": "gpu", "count": 1})" : "") + "]}]";
}

/// `count` nodes, each with one slot of one core (exclusive when `whole`).
std::string nodes(const std::string& count, bool whole = false) {
    return R"([{"type": "node", "count": )" + count + (whole ? R"(, "exclusive": true)" : "") +
           R"(, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}])";
}

std::string running(int id, const std::string& rank, const std::string& cores, double end) {
    return R"({"id": )" + std::to_string(id) + R"(, "expiration": )" + std::to_string(end) +
           R"(, "R": {"version": 1, "execution": {"R_lite": [{"rank": ")" + rank +
           R"(", "children": {"core": ")" + cores + R"("}}], "nodelist": ["n)" + rank + R"("]}}})";
}

jobspec::Forecast run(const std::string& scheduler, const std::string& r,
                      const std::string& pending, const std::string& active = "",
                      const std::string& extra = "") {
    const std::string text = R"({"now": 0, "R": )" + r + R"(, "scheduler": )" + scheduler +
                             R"(, "running": [)" + active + R"(], "pending": [)" + pending + "]" +
                             extra + "}";
    auto state = jobspec::read_instance_state(text);
    REQUIRE_MESSAGE(state.ok(), text);
    return jobspec::forecast(state.value());
}

const jobspec::JobForecast& of(const jobspec::Forecast& f, std::uint64_t id) {
    for (const auto& j : f.jobs)
        if (j.id == id)
            return j;
    FAIL("no job " << id);
    return f.jobs.front();
}

const std::string simple = R"({"name": "sched-simple"})";
const std::string backfill = R"({"name": "sched-backfill"})";

std::string fluxion(const std::string& policy, const std::string& more = "") {
    return R"({"name": "sched-fluxion-qmanager", "fluxion": {"params": {"queue-policy": ")" +
           policy + "\"" + more + "}}}";
}

} // namespace

TEST_CASE("forecast rules - flux-core takes the nodes with the most free cores first") {
    // n0 has 1 core free, n1 3, n2 4: a one-core job goes to n2, then the next to n1.
    const auto f = run(simple, r_of(3), slot_job(10, slots(1, 1), 10) + "," +
                                            slot_job(11, slots(1, 4), 10),
                       running(1, "0", "0-2", 100) + "," + running(2, "1", "0", 100));
    CHECK(of(f, 10).nodes.format() == "2");
    CHECK(of(f, 11).verdict == Verdict::waiting); // no node has 4 free after job 10
    // Fluxion takes the highest rank first.
    const auto g = run(fluxion("fcfs"), r_of(3), slot_job(10, slots(1, 1), 10));
    CHECK(of(g, 10).nodes.format() == "2");
    const auto h = run(fluxion("fcfs"), r_of(3), slot_job(10, slots(1, 1), 10),
                       running(1, "2", "0-3", 100));
    CHECK(of(h, 10).nodes.format() == "1");
}

TEST_CASE("forecast rules - slots pack node by node; node requests need their slots per node") {
    // 6 slots of 2 cores: three 4-core nodes hold 2 each.
    const auto f = run(simple, r_of(3), slot_job(10, slots(6, 2), 10));
    CHECK(of(f, 10).verdict == Verdict::next);
    CHECK(of(f, 10).nodes.format() == "0-2");
    // A node count with no maximum takes every node that fits.
    const auto g = run(simple, r_of(3), slot_job(10, nodes(R"({"min": 1})"), 10));
    CHECK(of(g, 10).nodes.format() == "0-2");
    // An exclusive request without nodes is a whole node per slot.
    const std::string whole_slots = R"([{"type": "slot", "count": 2, "exclusive": true, "label": "task", "with": [{"type": "core", "count": 1}]}])";
    const auto h = run(simple, r_of(3), slot_job(10, whole_slots, 10), running(1, "0", "0", 50));
    CHECK(of(h, 10).nodes.format() == "1-2");
}

TEST_CASE("forecast rules - what flux-core's allocator refuses: stepped counts, no slot") {
    const std::string stepped = nodes(R"({"min": 1, "max": 4, "operator": "*", "operand": 2})");
    const auto f = run(simple, r_of(3), slot_job(10, stepped, 10) + "," +
                                            slot_job(11, slots(1, 1), 10));
    CHECK(of(f, 10).verdict == Verdict::never);
    CHECK(of(f, 11).verdict == Verdict::next); // refused, it is out of the line
}

TEST_CASE("forecast rules - a job's queue's requires and hosts are its ranks") {
    const std::string config = R"(, "config": {"queues": {"small": {"requires": ["ssd"]}}})";
    const auto f = run(simple, r_of(4, true),
                       slot_job(10, nodes("1"), 10, "", R"(, "queue": "small")"), "", config);
    REQUIRE(of(f, 10).start);
    CHECK(of(f, 10).nodes.format() == "2"); // of the ssd nodes, both free: the lower rank
}

TEST_CASE("forecast rules - sched-backfill backfills only what ends by the shadow time") {
    // n0 busy until 100; the head needs both nodes whole; behind it a 50 s and a 150 s job.
    const auto f = run(backfill, r_of(2),
                       slot_job(10, nodes("2", true), 10) + "," + slot_job(11, slots(1, 1), 50) + "," +
                           slot_job(12, slots(1, 1), 150),
                       running(1, "0", "0-3", 100));
    CHECK(*of(f, 10).start == doctest::Approx(100.03));
    CHECK(*of(f, 11).start == 0);
    CHECK(*of(f, 12).start == doctest::Approx(110.06)); // after the head, which runs 100 to 110
    // A queue depth: sched-backfill sees only the first N jobs.
    const auto g = run(R"({"name": "sched-backfill", "args": ["queue-depth=2"]})", r_of(2),
                       slot_job(10, nodes("2"), 10) + "," + slot_job(11, slots(1, 4), 500) +
                           "," + slot_job(12, slots(1, 1), 50),
                       running(1, "0", "0-3", 100));
    CHECK(*of(g, 12).start > 0); // the third job is beyond the depth: no backfill now
}

TEST_CASE("forecast rules - sched-backfill: ending at the shadow time is not ending before it") {
    // n0 busy until 50. Job 10 takes n1 until 100 in the pass where the head (job 11, all
    // three nodes) finds its shadow time: 100. Job 12 would end at 100 too, but the
    // instance's clock has moved on since job 10 started: it is not backfilled, and starts
    // after the head. Job 13, ending at 99, is backfilled.
    const auto f = run(backfill, r_of(3),
                       slot_job(10, slots(1, 4), 100) + "," + slot_job(11, nodes("3", true), 10) +
                           "," + slot_job(12, slots(1, 1), 100) + "," +
                           slot_job(13, slots(1, 1), 99),
                       running(1, "0", "0-3", 50));
    CHECK(*of(f, 10).start == 0);
    CHECK(*of(f, 11).start == doctest::Approx(100.03));
    CHECK(*of(f, 13).start == 0);
    CHECK(*of(f, 12).start == doctest::Approx(110.06));
}

TEST_CASE("forecast rules - of jobs ending at the same time, fewer passes end first") {
    // n1 busy until 10. Job 10 takes n0 from 0 to 5, job 11 from 5 to 10: a pass after it.
    // At 10 the running job's end comes first, alone: job 12 starts on n1, though n0, the
    // lower rank, would be as free were both ends seen at once.
    const auto f = run(simple, r_of(2),
                       slot_job(10, slots(1, 4), 5) + "," + slot_job(11, slots(1, 4), 5) + "," +
                           slot_job(12, slots(1, 1), 20),
                       running(1, "1", "0-3", 10));
    CHECK(*of(f, 11).start == doctest::Approx(5.03));
    REQUIRE(of(f, 12).start);
    CHECK(*of(f, 12).start == doctest::Approx(10.03));
    CHECK(of(f, 12).nodes.format() == "1");
}

TEST_CASE("forecast rules - flux-core's starts are reported as late as the passes before them") {
    // One node, three jobs of 10 s in a chain. sched-simple counts each expiration from
    // the allocation, so each start is 30 ms later than the last end: 0, 10.03, 20.06.
    // The job the next pass starts is reported at the forecast's moment. Fluxion's plan
    // keeps whole seconds however late each job started.
    const std::string chain = slot_job(10, slots(1, 4), 10) + "," +
                              slot_job(11, slots(1, 4), 10) + "," + slot_job(12, slots(1, 4), 10);
    const auto f = run(simple, r_of(1), chain);
    CHECK(*of(f, 10).start == 0);
    CHECK(of(f, 10).verdict == Verdict::next);
    CHECK(*of(f, 11).start == doctest::Approx(10.03));
    CHECK(*of(f, 12).start == doctest::Approx(20.06));
    CHECK(*of(f, 12).end == doctest::Approx(30.06));
    const auto g = run(fluxion("fcfs"), r_of(1), chain);
    CHECK(*of(g, 11).start == 10);
    CHECK(*of(g, 12).start == 20);
}

TEST_CASE("forecast rules - FIFO's queue depth changes no start") {
    const std::string pending = slot_job(10, slots(1, 4), 10) + "," + slot_job(11, slots(1, 4), 10) +
                                "," + slot_job(12, slots(1, 4), 10);
    const auto a = run(simple, r_of(1), pending);
    const auto b = run(R"({"name": "sched-fifo", "args": ["queue-depth=1"]})", r_of(1), pending);
    for (std::uint64_t id : {10, 11, 12})
        CHECK(of(a, id).start == of(b, id).start);
    CHECK(*of(a, 12).start == doctest::Approx(20.06));
}

TEST_CASE("forecast rules - Fluxion's queues share the nodes, in the order of their names") {
    const std::string config =
        R"(, "config": {"queues": {"zebra": {}, "alpha": {}}})";
    // One node: alpha's job is matched before zebra's, though submitted later.
    const auto f = run(fluxion("fcfs"), r_of(1),
                       slot_job(10, slots(1, 4), 10, "", R"(, "queue": "zebra")") + "," +
                           slot_job(11, slots(1, 4), 10, "", R"(, "queue": "alpha")"),
                       "", config);
    CHECK(*of(f, 11).start == 0);
    CHECK(*of(f, 10).start == 10);
}

TEST_CASE("forecast rules - Fluxion plans in whole seconds") {
    // A 2.5 s job started at 0 ends at 3 (rounded up), and the next starts then.
    const auto f = run(fluxion("fcfs"), r_of(1),
                       slot_job(10, slots(1, 4), 2.5) + "," + slot_job(11, slots(1, 4), 1));
    CHECK(*of(f, 11).start == 3);
}

TEST_CASE("forecast rules - Fluxion's jobs end together at the seconds of its plan") {
    // n0 busy until 10; jobs 10 and 11 take n1 from 0 to 5 and 5 to 10. At 10 both ends
    // come at once, however many passes led to each: job 12 takes the highest rank, n1.
    const auto f = run(fluxion("fcfs"), r_of(2),
                       slot_job(10, slots(1, 4), 5) + "," + slot_job(11, slots(1, 4), 5) + "," +
                           slot_job(12, slots(1, 1), 20),
                       running(1, "0", "0-3", 10));
    REQUIRE(of(f, 12).start);
    CHECK(*of(f, 12).start == 10);
    CHECK(of(f, 12).nodes.format() == "1");
}

namespace {

/// Job `id` waiting for job `target` to end (afterany), of one node's four cores for 10 s.
std::string after_finish(int id, int target) {
    std::string job = slot_job(id, slots(1, 4), 10);
    const std::string sched = R"("state": "sched")";
    job.replace(job.find(sched), sched.size(),
                R"("state": "depend", "dependencies": ["after-finish=)" +
                    jobspec::encode_fluid(static_cast<std::uint64_t>(target),
                                          jobspec::FluidEncoding::f58) +
                    R"("])");
    return job;
}

} // namespace

TEST_CASE("forecast rules - a refused job has ended for those waiting for it") {
    // One node. Job 10 asks two and is refused; job 11 waits for its end; jobs 12 and 13
    // take the node whole for 10 s. sched-simple refuses job 10 and goes on: job 12 starts
    // at once, job 11 arrives after that pass and goes before job 13.
    const std::string jobs = slot_job(10, nodes("2"), 10) + "," + after_finish(11, 10) + "," +
                             slot_job(12, slots(1, 4), 10) + "," + slot_job(13, slots(1, 4), 10);
    const auto f = run(simple, r_of(1), jobs);
    CHECK(of(f, 10).verdict == Verdict::never);
    CHECK(*of(f, 12).start == 0);
    CHECK(*of(f, 13).start == doctest::Approx(20.06));
    // Fluxion's fcfs ends its pass at the refusal and starts another from the top once
    // job 11 has arrived: job 11 goes first, then 12, then 13.
    const auto g = run(fluxion("fcfs"), r_of(1), jobs);
    CHECK(*of(g, 12).start == 10);
    CHECK(*of(g, 13).start == 20);
    // With nothing to arrive, the pass after the refusal comes all the same.
    const auto h = run(fluxion("fcfs"), r_of(1),
                       slot_job(10, nodes("2"), 10) + "," + slot_job(12, slots(1, 4), 10));
    REQUIRE(of(h, 12).start);
    CHECK(*of(h, 12).start == 0);
}

TEST_CASE("forecast rules - Fluxion refuses more nodes than are up, now or beyond the depth") {
    const std::string drained = R"(, "drained": {"1": "fan"})";
    // fcfs: refused when it comes to it; the job behind it runs.
    const auto f = run(fluxion("fcfs"), r_of(2),
                       slot_job(10, nodes("2"), 10) + "," + slot_job(11, slots(1, 1), 10), "",
                       drained);
    CHECK(of(f, 10).verdict == Verdict::never);
    CHECK(of(f, 11).verdict == Verdict::next);
    // easy: the first such job is set aside (it may reserve later), not refused.
    const auto g = run(fluxion("easy"), r_of(2), slot_job(10, nodes("2"), 10), "", drained);
    CHECK(of(g, 10).verdict == Verdict::down);
}

TEST_CASE("forecast rules - Fluxion takes the highest ranks its constraints allow") {
    // ssd on n1 and n3-4 of six nodes: from the top, what each needs free. After job 10's
    // core on each of n3-4, job 11's four cores are free only on n1.
    const std::string r = R"({"version": 1, "execution": {"R_lite": [{"rank": "0-5",
        "children": {"core": "0-3"}}], "nodelist": ["n[0-5]"], "properties": {"ssd": "1,3-4"}}})";
    const std::string ssd = R"(, "constraints": {"properties": ["ssd"]})";
    const auto f = run(fluxion("fcfs"), r, slot_job(10, nodes("2"), 10, ssd) + "," +
                                               slot_job(11, slots(1, 4), 10, ssd));
    CHECK(of(f, 10).nodes.format() == "3-4");
    CHECK(of(f, 11).nodes.format() == "1");
    const auto g = run(fluxion("fcfs"), r, slot_job(10, nodes("3", true), 10, ssd) + "," +
                                               slot_job(11, nodes("1", true), 10));
    CHECK(of(g, 10).nodes.format() == "1,3-4");
    CHECK(of(g, 11).nodes.format() == "5");
    // Four ssd nodes: there are three, so flux-core's feasibility check refuses it, and the
    // job behind it starts.
    const auto h = run(simple, r, slot_job(10, nodes("4"), 10, ssd) + "," +
                                      slot_job(11, slots(1, 1), 10));
    CHECK(of(h, 10).verdict == Verdict::never);
    REQUIRE(of(h, 11).start);
    CHECK(*of(h, 11).start == 0);
}

TEST_CASE("forecast rules - a job's end frees only what it held") {
    // Two jobs hold two cores each of the one node, until 10 and 100: four cores are free
    // at 100, not at 10.
    const auto f = run(simple, r_of(1), slot_job(10, slots(1, 4), 10),
                       running(1, "0", "0-1", 10) + "," + running(2, "0", "2-3", 100));
    REQUIRE(of(f, 10).start);
    CHECK(*of(f, 10).start == doctest::Approx(100.03));
}

TEST_CASE("forecast rules - reservations: easy holds one, conservative each job it looks at") {
    // One 4-core node busy until 100. Job 10 needs it whole (reserved at 100); job 11 too
    // (reserved after 10 under conservative); job 12, 1 core for 200 s, starts now only if
    // nothing reserved needs its core while it runs.
    const std::string pending = slot_job(10, slots(1, 4), 10) + "," + slot_job(11, slots(1, 4), 10) +
                                "," + slot_job(12, slots(1, 1), 200);
    const std::string half = running(1, "0", "0-1", 100);
    const auto easy = run(fluxion("easy"), r_of(1), pending, half);
    CHECK(*of(easy, 10).start == 100);
    CHECK(*of(easy, 12).start >= 100); // it would delay job 10's reservation
    const std::string pending_short = slot_job(10, slots(1, 4), 10) + "," +
                                      slot_job(11, slots(1, 4), 10) + "," +
                                      slot_job(12, slots(1, 1), 50);
    const auto short_one = run(fluxion("easy"), r_of(1), pending_short, half);
    CHECK(*of(short_one, 12).start == 0); // it ends by 100: it backfills
    const auto conservative = run(fluxion("conservative"), r_of(1), pending_short, half);
    CHECK(*of(conservative, 12).start == 0);
    CHECK(*of(conservative, 11).start == 110);
}

TEST_CASE("forecast rules - Fluxion's params: depths per policy, a queue's own replacing all") {
    const auto hybrid = jobspec::scheduler_setup(
        "sched-fluxion-qmanager", {},
        nullptr); // defaults
    CHECK(hybrid.fluxion_queues.at("default").policy == jobspec::FluxionPolicy::fcfs);
    CHECK(hybrid.fluxion_queues.at("default").queue_depth == 32);
    const auto params = boost::json::value{
        {"params",
         {{"queue-policy", "conservative"}, {"queue-params", "queue-depth=8"},
          {"policy-params", "max-reservation-depth=4"},
          {"debug", {{"queue-policy", "easy"}, {"queue-params", ""}}}}}};
    const auto s = jobspec::scheduler_setup("sched-fluxion-qmanager", {}, &params);
    CHECK(s.fluxion_queues.at("default").reservation_depth == 4);
    CHECK(s.fluxion_queues.at("debug").policy == jobspec::FluxionPolicy::easy);
    CHECK(s.fluxion_queues.at("debug").reservation_depth == 1);
    CHECK(s.fluxion_queues.at("debug").queue_depth == 8); // the instance's queue-params
}
