// The simulation itself (src/forecast/simulation.hpp), where the public forecast does not
// show what happened: the start of a job it still calls blocked; and its row of bits.
#include <doctest/doctest.h>

#include <jobspec/forecast.hpp>

#include "forecast/simulation.hpp"
#include "support/bit_row.hpp"

namespace {

using namespace jobspec;
using namespace jobspec::forecasting;

/// A request of one slot of `cores` cores for `duration` seconds, or of `nodes` whole nodes.
SchedulerRequest request(double duration, std::uint64_t cores, std::uint64_t nodes = 0) {
    SchedulerRequest q;
    q.duration = duration;
    q.slot_cores = cores;
    q.candidates = IdSet::range(0, 1);
    if (nodes > 0) {
        q.nodes = RequestCount{nodes, nodes};
        q.exclusive = true;
    }
    return q;
}

/// Cores `first`-`last` of each rank of `ranks` (no GPUs).
ResourceSet cores(IdSet ranks, std::uint64_t first, std::uint64_t last) {
    ResourceSet r;
    r.add(std::move(ranks), IdSet::range(first, last), IdSet{});
    return r;
}

SimJob pending(std::uint64_t id, SchedulerRequest q) {
    SimJob j;
    j.id = id;
    j.priority = 16;
    j.t_submit = static_cast<double>(id);
    j.request = std::move(q);
    j.considered = true;
    return j;
}

} // namespace

TEST_CASE("simulation - sched-backfill: a short job joining the line later is backfilled") {
    // n0 busy until 100, a core of n1 until 30. The head (1,000 s) needs both nodes whole:
    // its shadow time is 100. Job 11 (500 s) is too long to backfill at any time before
    // it. Job 12 (20 s) waits for job 2's end: it joins the line at 30, ends by 100, and
    // is backfilled then, though the shortest job pending before was too long.
    ResourceSet all;
    all.add(IdSet::range(0, 1), IdSet::range(0, 3), IdSet{});
    SimInput in{0, 0, scheduler_setup("sched-backfill"), SimPool(all, IdSet{}), {}, {}};
    ResourceSet n0;
    n0.add(IdSet::range(0, 0), IdSet::range(0, 3), IdSet{});
    ResourceSet core_of_n1;
    core_of_n1.add(IdSet::range(1, 1), IdSet::range(0, 0), IdSet{});
    in.running.push_back({1, in.pool.holding_of(n0), 100.0});
    in.running.push_back({2, in.pool.holding_of(core_of_n1), 30.0});
    in.jobs.push_back(pending(10, request(1000, 1, 2)));
    in.jobs.push_back(pending(11, request(500, 1)));
    SimJob waiting = pending(12, request(20, 1));
    waiting.considered = false;
    waiting.released_by = {{2, false}};
    in.jobs.push_back(std::move(waiting));
    Simulation sim(std::move(in));
    while (!sim.advance(1000)) {
    }
    REQUIRE(sim.outcomes()[2].start);
    CHECK(*sim.outcomes()[2].start == doctest::Approx(30));
    REQUIRE(sim.outcomes()[0].start);
    CHECK(*sim.outcomes()[0].start == doctest::Approx(100));
    REQUIRE(sim.outcomes()[1].start);
    CHECK(*sim.outcomes()[1].start >= 1100);
}

TEST_CASE("simulation - a row of bits: the next and the last set, across words") {
    support::BitRow row(130);
    CHECK(row.next(0) == 130);
    CHECK(row.prev(130) == 130);
    for (const std::size_t i : {0, 63, 64, 129})
        row.set(i, true);
    row.set(63, true); // set twice, counted once
    CHECK(row.count() == 4);
    CHECK(row.next(1) == 63);
    CHECK(row.next(65) == 129);
    CHECK(row.prev(129) == 64);
    CHECK(row.prev(64) == 63);
    CHECK(row.prev(63) == 0);
    CHECK(row.prev(0) == 130);
    row.set(64, false);
    CHECK(row.count() == 3);
    CHECK(row.prev(129) == 63);
    CHECK(row.test(129));
    CHECK_FALSE(row.test(64));
}

TEST_CASE("simulation - a holding withheld for a moment: only what is free, put back exactly") {
    // n0's cores 0-3 and n1's 0-3; a job holds n0's cores 0-1. A reservation of all of n0
    // and core 0 of n1, withheld, takes only n0's 2-3 and n1's 0; given back, the pool is
    // as it was, and the job's cores are still held.
    SimPool pool(cores(IdSet::range(0, 1), 0, 3), IdSet{});
    pool.take(pool.holding_of(cores(IdSet::range(0, 0), 0, 1)));
    ResourceSet reserved = cores(IdSet::range(0, 0), 0, 3);
    reserved.add(IdSet::range(1, 1), IdSet::range(0, 0), IdSet{});
    const Holding withheld = pool.withhold(pool.holding_of(reserved));
    CHECK(withheld.ncores == 3);
    CHECK(pool.resources(withheld).groups().size() == 2);
    CHECK(pool.ranks_with_cores_free() == 0);
    CHECK(!pool.allocate(request(10, 4), NodeOrder::most_free)); // n1 has 3 cores free
    pool.give_back(withheld);
    CHECK(pool.ranks_with_cores_free() == 1);
    const auto h = pool.allocate(request(10, 4), NodeOrder::most_free);
    REQUIRE(h);
    CHECK(pool.rank(h->parts.front().index) == 1);
    SchedulerRequest two_more = request(10, 2);
    two_more.candidates = IdSet::range(0, 0);
    const auto on_n0 = pool.allocate(two_more, NodeOrder::most_free);
    REQUIRE(on_n0);
    CHECK(on_n0->parts.front().cores.format() == "2-3");
}

TEST_CASE("simulation - whole nodes in Fluxion's order around a reservation's ranks") {
    // node[0-5]; n5 busy; a reservation holds cores of n4 and n2. Two whole nodes: n3 and
    // n1, as the pool with the reservation withheld gives them; three: n3, n1, n0.
    SimPool pool(cores(IdSet::range(0, 5), 0, 3), IdSet{});
    pool.take(pool.holding_of(cores(IdSet::range(5, 5), 0, 3)));
    ResourceSet reserved = cores(IdSet::range(4, 4), 0, 3);
    reserved.add(IdSet::range(2, 2), IdSet::range(1, 1), IdSet{});
    support::BitRow rows(pool.size());
    rows.set(4, true);
    rows.set(2, true);
    SchedulerRequest two = request(10, 1, 2);
    two.candidates = IdSet::range(0, 5);
    REQUIRE(pool.wholly_free_alike());
    const auto fast = pool.allocate_whole_avoiding(two, {&rows});
    REQUIRE(fast);
    CHECK(pool.resources(*fast).ranks().format() == "1,3");
    const Holding withheld = pool.withhold(pool.holding_of(reserved));
    const auto slow = pool.allocate(two, NodeOrder::highest_first);
    pool.give_back(withheld);
    REQUIRE(slow);
    CHECK(pool.resources(*slow).ranks().format() == "1,3");
    SchedulerRequest three = request(10, 1, 3);
    three.candidates = IdSet::range(0, 5);
    const auto more = pool.allocate_whole_avoiding(three, {&rows});
    REQUIRE(more);
    CHECK(pool.resources(*more).ranks().format() == "0-1,3");
    SchedulerRequest four = request(10, 1, 4);
    four.candidates = IdSet::range(0, 5);
    CHECK(!pool.allocate_whole_avoiding(four, {&rows}));
}
