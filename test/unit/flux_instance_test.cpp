// The Flux instance pass (ReadOptions::flux_instance): what flux-core cannot hold, each
// class at its bound and one past it, and nothing reported without the option.
#include <doctest/doctest.h>

#include <string>

#include <jobspec/document.hpp>

namespace {

/// A valid jobspec with `constraints` (JSON) in attributes.system, and the count of its
/// core vertex.
std::string job(const std::string& constraints, const std::string& count = "1",
                const std::string& attributes = "") {
    return R"({"version": 1, "resources": [{"type": "slot", "count": 1, "label": "task",
 "with": [{"type": "core", "count": )" +
           count + R"(}]}], "tasks": [{"command": ["true"], "slot": "task",
 "count": {"per_slot": 1}}], "attributes": )" +
           (attributes.empty()
                ? R"({"system": {"duration": 0)" +
                      (constraints.empty() ? "" : ", \"constraints\": " + constraints) + "}}"
                : attributes) +
           "}";
}

/// The codes of the errors, "" when valid, checked for an instance of `size` ranks.
std::string codes(const std::string& text, std::uint64_t size = 0, bool flux = true) {
    jobspec::ReadOptions options;
    options.flux_instance = flux;
    options.flux_instance_size = size;
    std::string out;
    for (const auto& d : jobspec::read_jobspec(text, options).diagnostics())
        if (d.severity == jobspec::Severity::error)
            out += (out.empty() ? "" : " ") + std::string(d.code_name());
    return out;
}

} // namespace

TEST_CASE("flux instance - attributes: null, which the job manager cannot read") {
    const std::string null_attributes = job("", "1", "null");
    CHECK(codes(null_attributes, 0, false) == "");
    CHECK(codes(null_attributes) == "flux.attributes-null");
    CHECK(codes(job("", "1", "{}")) == "");
}

TEST_CASE("flux instance - ranks: below 2^31, in the instance, in order as flux sorts them") {
    CHECK(codes(job(R"({"ranks": ["2147483647"]})")) == "");
    CHECK(codes(job(R"({"ranks": ["2147483648"]})")) == "flux.idset-range");
    CHECK(codes(job(R"({"ranks": ["0-4294967295"]})")) == "flux.idset-range");
    CHECK(codes(job(R"({"ranks": ["2147483648"]})"), 0, false) == "");
    CHECK(codes(job(R"({"ranks": ["0-3"]})"), 4) == "");
    CHECK(codes(job(R"({"ranks": ["4"]})"), 4) == "flux.rank-range");
    CHECK(codes(job(R"({"ranks": ["4"]})"), 0) == "");
    // flux-core joins the values sorted as text: "1","10" reads as "1,10"; "2","10" as "10,2"
    CHECK(codes(job(R"({"ranks": ["1", "10"]})")) == "");
    CHECK(codes(job(R"({"ranks": ["2", "10"]})")) == "flux.constraint");
    CHECK(codes(job(R"({"ranks": ["0-3", "2"]})")) == "flux.constraint");
    CHECK(codes(job(R"({"ranks": ["0-3", "3"]})")) == "flux.constraint");
    CHECK(codes(job(R"({"ranks": ["0-3", "4"]})")) == "");
    CHECK(codes(job(R"({"ranks": ["[0-3]"]})")) == "");
    CHECK(codes(job(R"({"ranks": ["[0]", "[1]"]})")) == "flux.constraint");
    CHECK(codes(job(R"({"ranks": ["1-1"]})"), 0, false) == "");
    CHECK(codes(job(R"({"ranks": ["1-1"]})")) == "flux.constraint");
    CHECK(codes(job(R"({"and": [{"not": [{"ranks": ["5"]}]}]})"), 4) == "flux.rank-range");
}

TEST_CASE("flux instance - not with no constraint") {
    CHECK(codes(job(R"({"not": []})"), 0, false) == "");
    CHECK(codes(job(R"({"not": []})")) == "flux.constraint");
    CHECK(codes(job(R"({"not": [{"properties": ["a"]}]})")) == "");
}

TEST_CASE("flux instance - hostlists: ranges of 2^20 hosts, 10240 ranges, 2^20 spelled out") {
    CHECK(codes(job(R"({"hostlist": ["a[0-1048575]"]})")) == "");
    CHECK(codes(job(R"({"hostlist": ["a[0-1048576]"]})")) == "flux.hostlist");
    CHECK(codes(job(R"({"hostlist": ["b,a[7,0-1048576]"]})")) == "flux.hostlist");
    std::string ranges = "0";
    for (int i = 1; i < 10240; ++i)
        ranges += "," + std::to_string(i);
    CHECK(codes(job(R"({"hostlist": ["a[)" + ranges + R"(]"]})")) == "");
    CHECK(codes(job(R"({"hostlist": ["a[)" + ranges + R"(,10240]"]})")) == "flux.hostlist");
    // With a suffix every host is spelled out: 2^20 in all, across the parts of a value.
    CHECK(codes(job(R"({"hostlist": ["a[0-524287]x,b[0-524287]x"]})")) == "");
    CHECK(codes(job(R"({"hostlist": ["a[0-524287]x,b[0-524288]x"]})")) == "flux.hostlist");
    CHECK(codes(job(R"({"hostlist": ["a[0-1048575]x,b[0-1048575]"]})")) == "");
}

TEST_CASE("flux instance - counts the scheduler expands into their values") {
    CHECK(codes(job("", R"("1,1048575")")) == "");
    CHECK(codes(job("", R"("1,1048576")")) == "flux.count");
    CHECK(codes(job("", R"("1-2000000")")) == "");  // contiguous: never expanded
    CHECK(codes(job("", R"("1-131071:2")")) == ""); // 65536 values
    CHECK(codes(job("", R"("1-131073:2")")) == "flux.count");
    CHECK(codes(job("", R"("2+:2:*")")) == "flux.count");
    CHECK(codes(job("", R"("2+")")) == "");
    CHECK(codes(job("", R"({"min": 1, "max": 1048575, "operator": "*", "operand": 2})")) == "");
    CHECK(codes(job("", R"({"min": 1, "max": 1048576, "operator": "*", "operand": 2})")) ==
          "flux.count");
    CHECK(codes(job("", R"({"min": 2, "max": 4, "operator": "^", "operand": 64})")) == "");
    CHECK(codes(job("", R"({"min": 2, "max": 4, "operator": "^", "operand": 65})")) ==
          "flux.count");
    CHECK(codes(job("", R"({"min": 2, "max": 4, "operator": "^", "operand": 65})"), 0, false) ==
          "");
}

TEST_CASE("flux instance - nesting stops at 512 levels, whatever max_depth says") {
    const auto nested = [](int n) {
        return job("", "1",
                   R"({"user": {"x": )" + std::string(n, '[') + std::string(n, ']') + "}}");
    };
    jobspec::ReadOptions options;
    options.limits.max_depth = 1000;
    CHECK(jobspec::read_jobspec(nested(600), options).ok());
    options.flux_instance = true;
    CHECK(jobspec::read_jobspec(nested(500), options).ok());
    const auto deep = jobspec::read_jobspec(nested(600), options);
    REQUIRE_FALSE(deep.ok());
    CHECK(deep.diagnostics()[0].code_name() == "limit.depth");
}
