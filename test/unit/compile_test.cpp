// Compiling jobspecs from requests: RFC 25's use cases, durations, attributes.
#include <jobspec/compile.hpp>
#include <jobspec/emit.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

namespace {

/// The resources and tasks of a request, as compact JSON, or "error: CODE ...".
std::string compiled(jobspec::JobRequest r) {
    if (r.command.empty())
        r.command = {"app"};
    auto result = jobspec::compile_jobspec(r);
    if (!result.ok()) {
        std::string out = "error:";
        for (const auto& d : result.diagnostics())
            out += " " + std::string(d.code_name());
        return out;
    }
    auto v = jobspec::to_json_value(result.value());
    boost::json::object o;
    o["resources"] = v.at("resources");
    o["tasks"] = v.at("tasks");
    return boost::json::serialize(o);
}

jobspec::JobRequest request(std::optional<std::uint64_t> nodes, std::optional<std::uint64_t> tasks,
                            std::uint64_t cores = 1, std::uint64_t gpus = 0) {
    jobspec::JobRequest r;
    r.nodes = nodes;
    r.tasks = tasks;
    r.cores_per_task = cores;
    r.gpus_per_task = gpus;
    return r;
}

} // namespace

TEST_CASE("compile - RFC 25 use cases from options") {
    // 1.1: -N4
    CHECK(compiled(request(4, std::nullopt)) ==
          R"({"resources":[{"type":"node","count":4,"with":[{"type":"slot","count":1,)"
          R"("label":"default","with":[{"type":"core","count":1}]}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"per_slot":1}}]})");
    // 2.1: -n5 -N4
    CHECK(compiled(request(4, 5)) ==
          R"({"resources":[{"type":"node","count":4,"with":[{"type":"slot","count":1,)"
          R"("label":"default","with":[{"type":"core","count":1}]}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"total":5}}]})");
    // -N2 -n2: a task per node, per slot
    CHECK(compiled(request(2, 2)) ==
          R"({"resources":[{"type":"node","count":2,"with":[{"type":"slot","count":1,)"
          R"("label":"default","with":[{"type":"core","count":1}]}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"per_slot":1}}]})");
    // 2.2: -n10 -c2
    CHECK(compiled(request(std::nullopt, 10, 2)) ==
          R"({"resources":[{"type":"slot","count":10,"label":"default","with":[)"
          R"({"type":"core","count":2}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"per_slot":1}}]})");
    // 2.3: -n10 -c2 -g1
    CHECK(compiled(request(std::nullopt, 10, 2, 1)) ==
          R"({"resources":[{"type":"slot","count":10,"label":"default","with":[)"
          R"({"type":"core","count":2},{"type":"gpu","count":1}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"per_slot":1}}]})");
    // 2.4: -n16 -N4 -g1
    CHECK(compiled(request(4, 16, 1, 1)) ==
          R"({"resources":[{"type":"node","count":4,"with":[{"type":"slot","count":4,)"
          R"("label":"default","with":[{"type":"core","count":1},{"type":"gpu","count":1}]}]}],)"
          R"("tasks":[{"command":["app"],"slot":"default","count":{"per_slot":1}}]})");
}

TEST_CASE("compile - requests that make no sense") {
    auto x = request(std::nullopt, 2);
    x.exclusive = true;
    CHECK(compiled(x) == "error: jobspec.request");
    CHECK(compiled(request(4, 2)) == "error: jobspec.request");
    CHECK(compiled(request(0, std::nullopt)) == "error: jobspec.request");
    auto shape_and_nodes = request(2, std::nullopt);
    shape_and_nodes.shape = "slot/core";
    CHECK(compiled(shape_and_nodes) == "error: jobspec.request");
    auto two_slots = request(std::nullopt, std::nullopt);
    two_slots.shape = "[slot{a}/core;slot{b}/gpu]";
    CHECK(compiled(two_slots) == "error: jobspec.request");
    auto bad_shape = request(std::nullopt, std::nullopt);
    bad_shape.shape = "slot=3-1/core";
    CHECK(compiled(bad_shape) == "error: shape.range-order");
    jobspec::JobRequest no_command;
    CHECK_FALSE(jobspec::compile_jobspec(no_command).ok());
}

TEST_CASE("compile - shapes and attributes") {
    auto r = request(std::nullopt, 8);
    r.shape = "node=2/slot=4/core";
    r.command = {"app"};
    r.duration = 90;
    r.cwd = "/tmp";
    r.environment = {{"A", "1"}, {"B", "2"}, {"A", "3"}};
    r.attributes = {{"queue", boost::json::value("debug")},
                    {"user.study.run", boost::json::value(3)},
                    {"system.shell.options.verbose", boost::json::value(true)}};
    auto result = jobspec::compile_jobspec(r);
    REQUIRE(result.ok());
    const auto v = jobspec::to_json_value(result.value());
    CHECK(boost::json::serialize(v.at("tasks")) ==
          R"([{"command":["app"],"slot":"default","count":{"total":8}}])");
    CHECK(boost::json::serialize(v.at("attributes")) ==
          R"({"system":{"duration":9E1,"cwd":"/tmp","environment":{"A":"3","B":"2"},)"
          R"("queue":"debug","shell":{"options":{"verbose":true}}},"user":{"study":{"run":3}}})");
}

TEST_CASE("compile - an attribute set twice keeps the last value, as flux run --setattr does") {
    auto r = request(std::nullopt, 1);
    r.command = {"app"};
    r.attributes = {{"queue", boost::json::value("debug")},
                    {"system.queue", boost::json::value("batch")},
                    {"duration", boost::json::value(-1)},
                    {"duration", boost::json::value(60)}};
    auto result = jobspec::compile_jobspec(r);
    REQUIRE(result.ok());
    CHECK(boost::json::serialize(jobspec::to_json_value(result.value()).at("attributes")) ==
          R"({"system":{"duration":60,"queue":"batch"}})");
}

TEST_CASE("compile - durations in Flux Standard Duration") {
    CHECK(jobspec::parse_duration("90") == 90.0);
    CHECK(jobspec::parse_duration("30s") == 30.0);
    CHECK(jobspec::parse_duration("5m") == 300.0);
    CHECK(jobspec::parse_duration("1.5h") == 5400.0);
    CHECK(jobspec::parse_duration("2d") == 172800.0);
    CHECK(jobspec::parse_duration("0") == 0.0);
    CHECK(jobspec::parse_duration(".5m") == 30.0);
    CHECK_FALSE(jobspec::parse_duration(""));
    CHECK_FALSE(jobspec::parse_duration("-1"));
    CHECK_FALSE(jobspec::parse_duration("1x"));
    CHECK_FALSE(jobspec::parse_duration("h"));
    CHECK_FALSE(jobspec::parse_duration("1e999"));
    CHECK_FALSE(jobspec::parse_duration("inf"));
}

TEST_CASE("compile - attribute values are JSON when they parse") {
    CHECK(jobspec::attribute_value("4").as_int64() == 4);
    CHECK(jobspec::attribute_value("true").as_bool());
    CHECK(jobspec::attribute_value("[1,2]").as_array().size() == 2);
    CHECK(jobspec::attribute_value("debug").as_string() == "debug");
    CHECK(jobspec::attribute_value("1 2").as_string() == "1 2");
}
