// The simulation itself (src/forecast/simulation.hpp), where the public forecast does not
// show what happened: the start of a job it still calls blocked; its row of bits; and
// Fluxion's plans taken from the pass before, against every pass planned anew (the seed is
// printed; JOBSPEC_SIMULATION_SEED replays it).
#include <doctest/doctest.h>

#include <random>

#include <jobspec/forecast.hpp>

#include "forecast/simulation.hpp"
#include "support/bit_row.hpp"

#include "random_seed.hpp"

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

using Rng = std::mt19937;

unsigned seed() {
    static const unsigned s = jobspec::test::random_seed("JOBSPEC_SIMULATION_SEED", "simulation");
    return s;
}

std::uint64_t between(Rng& g, std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(g);
}

bool chance(Rng& g, double p) { return std::uniform_real_distribution<double>(0, 1)(g) < p; }

/// A Fluxion instance of 4-40 nodes of 4 cores (some with 2 GPUs), partly busy, with
/// 1-60 pending jobs in two queues of random policies and depths: whole nodes, cores on
/// nodes, bare slots of cores and GPUs, constrained to a range of ranks, some without a
/// time limit, some waiting for another to start or end.
SimInput random_fluxion_instance(Rng& g) {
    const std::uint64_t n = between(g, 4, 40);
    const std::uint64_t with_gpus = between(g, 0, n / 2);
    ResourceSet all;
    if (n > with_gpus)
        all.add(IdSet::range(0, n - with_gpus - 1), IdSet::range(0, 3), IdSet{});
    if (with_gpus > 0)
        all.add(IdSet::range(n - with_gpus, n - 1), IdSet::range(0, 3), IdSet::range(0, 1));
    IdSet down;
    if (chance(g, 0.3))
        down = IdSet::range(between(g, 0, n - 1), between(g, 0, n - 1) / 2 + n / 2);
    SchedulerSetup setup;
    setup.kind = SchedulerKind::fluxion;
    setup.name = "sched-fluxion-qmanager";
    const std::vector<std::string> names{"a", "b"};
    for (const auto& name : names) {
        FluxionQueue q;
        q.policy = static_cast<FluxionPolicy>(between(g, 0, 3));
        q.queue_depth = chance(g, 0.5) ? 32 : between(g, 1, 6);
        q.reservation_depth = q.policy == FluxionPolicy::fcfs   ? 0
                              : q.policy == FluxionPolicy::easy ? 1
                              : q.policy == FluxionPolicy::hybrid
                                  ? between(g, 1, 4)
                                  : q.queue_depth;
        setup.fluxion_queues[name] = q;
    }
    SimInput in{1000, 0, std::move(setup), SimPool(all, down), {}, {}};
    SimPool claims = in.pool;
    for (std::uint64_t i = 0, count = between(g, 0, n); i < count; ++i) {
        const std::uint64_t rank = between(g, 0, n - 1);
        if (down.contains(rank))
            continue;
        ResourceSet held;
        const std::uint64_t first = between(g, 0, 3);
        held.add(IdSet::range(rank, rank), IdSet::range(first, between(g, first, 3)),
                 rank >= n - with_gpus && chance(g, 0.5) ? IdSet::range(0, 0) : IdSet{});
        Holding h = claims.withhold(in.pool.holding_of(held)); // none held twice
        if (h.parts.empty())
            continue;
        const std::optional<double> end =
            chance(g, 0.9) ? std::optional<double>(1000 + between(g, 1, 500)) : std::nullopt;
        in.running.push_back({100 + i, std::move(h), end});
    }
    for (std::uint64_t i = 0, count = between(g, 1, 60); i < count; ++i) {
        SchedulerRequest q;
        q.duration = chance(g, 0.9) ? static_cast<double>(between(g, 1, 600)) : 0;
        const double kind = std::uniform_real_distribution<double>(0, 1)(g);
        if (kind < 0.4) {
            const std::uint64_t nodes = between(g, 1, std::max<std::uint64_t>(1, n / 3));
            q.nodes = RequestCount{nodes, nodes};
            q.exclusive = true;
        } else if (kind < 0.6) {
            const std::uint64_t nodes = between(g, 1, 3);
            q.nodes = RequestCount{nodes, nodes};
            q.slot_cores = between(g, 1, 4);
        } else if (kind < 0.75 && with_gpus > 0) {
            const std::uint64_t slots = between(g, 1, 3);
            q.slots = RequestCount{slots, slots};
            q.slot_gpus = 1;
        } else {
            const std::uint64_t slots = between(g, 1, 8);
            q.slots = RequestCount{slots, slots};
        }
        q.candidates = IdSet::range(0, n - 1);
        if (chance(g, 0.2)) {
            q.constrained = true;
            const std::uint64_t lo = between(g, 0, n - 1);
            q.candidates = IdSet::range(lo, between(g, lo, n - 1));
        }
        SimJob j = pending(5000 + i, std::move(q));
        j.priority = chance(g, 0.8) ? 16 : static_cast<std::int64_t>(between(g, 1, 20));
        j.queue = names[between(g, 0, 1)];
        if (i > 0 && chance(g, 0.15)) {
            j.considered = false;
            j.released_by = {{5000 + between(g, 0, i - 1), chance(g, 0.5)}};
        }
        in.jobs.push_back(std::move(j));
    }
    return in;
}

std::vector<SimOutcome> simulated(SimInput in) {
    Simulation sim(std::move(in));
    while (!sim.advance(1000)) {
    }
    return sim.outcomes();
}

bool same(const Holding& a, const Holding& b) {
    if (a.parts.size() != b.parts.size())
        return false;
    for (std::size_t p = 0; p < a.parts.size(); ++p)
        if (a.parts[p].index != b.parts[p].index || a.parts[p].cores != b.parts[p].cores ||
            a.parts[p].gpus != b.parts[p].gpus)
            return false;
    return true;
}

/// Whether `in` is forecast the same with plans kept and every pass planned anew; the
/// reservations made, counted in `reserved`.
bool kept_as_made(SimInput in, std::uint64_t& reserved) {
    SimInput anew = in;
    anew.replan = true;
    const auto fast = simulated(std::move(in));
    const auto slow = simulated(std::move(anew));
    for (std::size_t i = 0; i < fast.size(); ++i) {
        if (fast[i].start != slow[i].start || fast[i].end != slow[i].end ||
            fast[i].denied != slow[i].denied || fast[i].after != slow[i].after ||
            fast[i].reserved_at != slow[i].reserved_at || !same(fast[i].holding, slow[i].holding))
            return false;
        reserved += fast[i].reserved_at.has_value();
    }
    return true;
}

} // namespace

TEST_CASE("simulation - Fluxion's plans kept from pass to pass are the plans made anew") {
    // Each pass of a Fluxion queue takes its last plan when nothing it did not foresee
    // happened since; made anew every pass, the forecast must be the same, job by job.
    // The instance of seed 5647 told the two apart when a reservation another queue
    // dropped went unseen (dev/mutants.txt, forecast-plan-dropped-unseen; found among
    // 20,000); then 300 of a random seed.
    std::uint64_t reserved = 0;
    for (const unsigned fixed : {5647U}) {
        Rng g(fixed);
        INFO("JOBSPEC_SIMULATION_SEED=" << fixed << ", instance 0");
        CHECK(kept_as_made(random_fluxion_instance(g), reserved));
    }
    Rng g(seed());
    for (int instance = 0; instance < 300; ++instance) {
        INFO("instance " << instance);
        CHECK(kept_as_made(random_fluxion_instance(g), reserved));
    }
    CHECK(reserved > 300); // reservations were made, and so plans to keep
}

TEST_CASE("simulation - Fluxion: a reservation a queue drops frees another queue's job") {
    // node[0-2]; n1 busy until 100, n2 until 10. Queue a (conservative, depth 1): job 10
    // asks n0 and n1 with no time limit, reserved from 100 for ever. Queue b: job 11 asks
    // one of them for 200 s, so it has no time. At 10, n2's job ends and releases job 12
    // into queue a ahead of job 10; it asks four nodes and is refused, which ends queue
    // a's pass (depth 1) before job 10: its reservation is dropped. Queue b's pass then
    // starts job 11 on n0; following its last plan, it would leave job 11 without a time.
    ResourceSet all;
    all.add(IdSet::range(0, 2), IdSet::range(0, 3), IdSet{});
    SchedulerSetup setup;
    setup.kind = SchedulerKind::fluxion;
    setup.fluxion_queues["a"] = FluxionQueue{FluxionPolicy::conservative, 1, 1};
    setup.fluxion_queues["b"] = FluxionQueue{FluxionPolicy::conservative, 32, 32};
    SimInput in{0, 0, std::move(setup), SimPool(all, IdSet{}), {}, {}};
    in.running.push_back({1, in.pool.holding_of(cores(IdSet::range(1, 1), 0, 3)), 100.0});
    in.running.push_back({2, in.pool.holding_of(cores(IdSet::range(2, 2), 0, 3)), 10.0});
    SimJob reserving = pending(10, request(0, 1, 2));
    reserving.queue = "a";
    SimJob waiting = pending(11, request(200, 1, 1));
    waiting.queue = "b";
    SimJob refused = pending(12, request(10, 1, 4));
    refused.queue = "a";
    refused.priority = 20;
    refused.request.candidates = IdSet::range(0, 2);
    refused.considered = false;
    refused.released_by = {{2, false}};
    in.jobs = {reserving, waiting, refused};
    SimInput anew = in;
    anew.replan = true;
    for (SimInput* run : {&in, &anew}) {
        INFO("every pass planned anew: " << run->replan);
        const auto out = simulated(std::move(*run));
        CHECK(out[2].denied);
        REQUIRE(out[1].start);
        CHECK(*out[1].start == 10);
    }
}

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
