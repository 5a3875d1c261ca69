// ShapeCache: hits give exactly what compiling gives, keyed by text and options, LRU-bounded.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/shape_cache.hpp>

using jobspec::CountStyle;
using jobspec::ShapeCache;
using jobspec::ShapeOptions;

TEST_CASE("shape cache - a hit is the compiled text, shared") {
    ShapeCache cache(4);
    const auto first = cache.json("slot=2/core=4+");
    REQUIRE(first.ok());
    CHECK(*first.value() == jobspec::to_json_text(jobspec::to_json_value(
                                jobspec::compile_shape("slot=2/core=4+").value())));
    const auto again = cache.json("slot=2/core=4+");
    REQUIRE(again.ok());
    CHECK(again.value() == first.value());
    CHECK(cache.hits() == 1);
    CHECK(cache.misses() == 1);
}

TEST_CASE("shape cache - options and count style are part of the key") {
    ShapeCache cache;
    ShapeOptions task;
    task.default_label = "task";
    const auto plain = cache.json("slot/core=2+");
    const auto labelled = cache.json("slot/core=2+", task);
    const auto strings = cache.json("slot/core=2+", {}, CountStyle::string);
    CHECK(plain.value()->find("\"default\"") != std::string::npos);
    CHECK(labelled.value()->find("\"task\"") != std::string::npos);
    CHECK(strings.value()->find("\"2+\"") != std::string::npos);
    CHECK(cache.size() == 3);
    ShapeOptions shallow;
    shallow.limits.max_depth = 1;
    CHECK_FALSE(cache.json("node/slot/core", shallow).ok());
    CHECK(cache.json("node/slot/core").ok());
}

TEST_CASE("shape cache - failures and warnings are cached with their diagnostics") {
    ShapeCache cache;
    for (int i = 0; i < 2; ++i) {
        const auto bad = cache.json("slot=3-1/core");
        REQUIRE_FALSE(bad.ok());
        CHECK(bad.diagnostics()[0].code_name() == "shape.range-order");
        const auto warned = cache.json("core{colour:red}");
        REQUIRE(warned.ok());
        CHECK(warned.diagnostics()[0].code_name() == "jobspec.unknown-vertex-key");
    }
    CHECK(cache.hits() == 2);
}

TEST_CASE("shape cache - the least recently used entry goes first") {
    ShapeCache cache(2);
    (void)cache.json("core");
    (void)cache.json("gpu");
    (void)cache.json("core");   // core is now the most recent
    (void)cache.json("socket"); // evicts gpu
    CHECK(cache.size() == 2);
    const auto misses = cache.misses();
    (void)cache.json("core");
    CHECK(cache.misses() == misses);
    (void)cache.json("gpu");
    CHECK(cache.misses() == misses + 1);
    cache.clear();
    CHECK(cache.size() == 0);
    CHECK(ShapeCache(0).json("core").ok()); // capacity 0 means 1
}

TEST_CASE("shape cache - shared between threads") {
    ShapeCache cache(8);
    const std::vector<std::string> shapes = {"core", "slot/core", "node/slot=2/core", "gpu=2"};
    std::vector<std::thread> threads;
    threads.reserve(4);
    std::vector<int> failures(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 500; ++i) {
                const auto& s = shapes[(i + t) % shapes.size()];
                const auto r = cache.json(s);
                const auto want = jobspec::to_json_text(
                    jobspec::to_json_value(jobspec::compile_shape(s).value()));
                if (!r.ok() || *r.value() != want)
                    ++failures[t];
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(failures == std::vector<int>(4, 0));
    CHECK(cache.hits() + cache.misses() == 2000);
}
