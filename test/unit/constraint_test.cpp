// Constraints: queries, RFC 31 objects, matching against R, and feasibility.
#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/submit.hpp>

#include "model/decoders.hpp"
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

namespace {

std::string query(std::string_view q, std::optional<std::string> default_operator = std::nullopt) {
    jobspec::QueryOptions options;
    options.default_operator = std::move(default_operator);
    auto r = jobspec::parse_constraint_query(q, options);
    if (!r.ok())
        return "error: " + std::string(r.diagnostics()[0].code_name());
    return boost::json::serialize(jobspec::to_json_value(r.value()));
}

jobspec::ResourceSet cluster() {
    jobspec::ResourceSet r;
    r.add(*jobspec::model::decode_idset("0-7"), *jobspec::model::decode_idset("0-15"),
          *jobspec::model::decode_idset("0-1"));
    r.add(*jobspec::model::decode_idset("8-15"), *jobspec::model::decode_idset("0-31"), {});
    REQUIRE(r.set_nodelist(*jobspec::model::decode_hostlist("foo[0-7],bar[0-7]")));
    REQUIRE(r.set_property("ssd", *jobspec::model::decode_idset("0-3,8-11")));
    REQUIRE(r.set_property("+debug", *jobspec::model::decode_idset("15")));
    return r;
}

/// The V1 jobspec `flux run` builds from `options` (flux's, such as "-N4") for "app".
jobspec::Jobspec submitted(std::vector<std::string> options) {
    options.emplace_back("app");
    auto parsed = jobspec::parse_submit_arguments(options);
    REQUIRE(parsed.ok());
    auto value = jobspec::compile_submission(parsed.value(), {});
    REQUIRE(value.ok());
    jobspec::ReadOptions v1;
    v1.v1 = true;
    auto js = jobspec::read_jobspec(jobspec::to_json_text(value.value()), v1);
    REQUIRE(js.ok());
    return std::move(js).value();
}

/// A summary of the allocation for flux's options, or "error: message".
std::string allocation(std::vector<std::string> options, const jobspec::ResourceSet& r,
                       std::string_view requires_query = {}) {
    if (!requires_query.empty())
        options.push_back("--requires=" + std::string(requires_query));
    auto alloc = jobspec::match_jobspec(submitted(std::move(options)), r);
    if (!alloc.ok())
        return "error: " + alloc.diagnostics()[0].message;
    return alloc.value().summary() + " nslots=" + std::to_string(*alloc.value().nslots) +
           " hosts=" + alloc.value().nodelist().encode();
}

} // namespace

TEST_CASE("constraint - an operator is decided once from its name") {
    using jobspec::ConstraintOperator;
    using Kind = ConstraintOperator::Kind;
    const std::vector<std::pair<std::string, Kind>> rfc31 = {
        {"and", Kind::and_of},        {"or", Kind::or_of},
        {"not", Kind::not_of},        {"properties", Kind::properties},
        {"hostlist", Kind::hostlist}, {"ranks", Kind::ranks}};
    for (const auto& [name, kind] : rfc31) {
        const ConstraintOperator op(name);
        CHECK(op.kind() == kind);
        CHECK(op.name() == name);
        CHECK(op.logical() == (name == "and" || name == "or" || name == "not"));
    }
    // Another name, as RFC 35's plain language takes it, is kept as written; one that
    // only looks like RFC 31's is not RFC 31's.
    for (const std::string name : {"name", "Ranks", "and ", "", "hostlists"}) {
        const ConstraintOperator op(name);
        CHECK(op.kind() == Kind::other);
        CHECK(op.name() == name);
        CHECK_FALSE(op.logical());
    }
    CHECK(ConstraintOperator("name") != ConstraintOperator("color"));
    CHECK(ConstraintOperator{}.kind() == Kind::and_of);
    // The writer uses the name: {"name": ["x"]} is written as it was made.
    const jobspec::Constraint made{
        "or",
        {},
        {jobspec::Constraint{"name", {"x"}, {}}, jobspec::Constraint{"ranks", {"1"}, {}}}};
    CHECK(made.children()[0].op().name() == "name");
    CHECK(boost::json::serialize(jobspec::to_json_value(made)) ==
          R"({"or":[{"name":["x"]},{"ranks":["1"]}]})");
    // RFC 31's reader takes only RFC 31's operators.
    const auto read = jobspec::constraint_from_json(boost::json::parse(R"({"name": ["x"]})"));
    REQUIRE_FALSE(read.ok());
    CHECK(read.diagnostics()[0].code_name() == "constraint.unknown-operator");
}

TEST_CASE("constraint - the two dialects") {
    CHECK(query("ssd gpu") == R"({"properties":["ssd","gpu"]})");
    CHECK(query("ssd gpu", "name") == R"({"and":[{"name":["ssd"]},{"name":["gpu"]}]})");
    CHECK(query("state:up") == "error: query.unknown-operator");
    CHECK(query("state:up", "name") == R"({"state":["up"]})");
    CHECK(query("host:x", "name") == R"({"host":["x"]})");
    auto typo = jobspec::parse_constraint_query("hostlst:x");
    CHECK(typo.diagnostics()[0].help == "did you mean 'hostlist'?");
}

TEST_CASE("constraint - value errors point inside the operand") {
    auto r = jobspec::parse_constraint_query("a host:'foo[1-'");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics()[0].code == jobspec::Code::query_value);
    CHECK(r.diagnostics()[0].location.range.begin == 14);
    auto deep =
        jobspec::parse_constraint_query(std::string(200, '(') + "a" + std::string(200, ')'));
    CHECK(deep.diagnostics()[0].code == jobspec::Code::limit_depth);
    std::string nots;
    for (int i = 0; i < 100; ++i)
        nots += "not ";
    CHECK(jobspec::parse_constraint_query(nots + "a").diagnostics()[0].code ==
          jobspec::Code::limit_depth);
}

TEST_CASE("constraint - an operand is valid exactly when constraint_from_json accepts it") {
    const std::pair<std::string_view, std::string_view> cases[] = {
        {"properties", "ssd"},
        {"properties", "^ssd"},
        {"properties", "a b"},
        {"properties", "^"},
        {"properties", ""},
        {"hostlist", "foo[1-3]"},
        {"hostlist", "foo[3-1]"},
        {"hostlist", "foo[1-"},
        {"ranks", "0-3,7"},
        {"ranks", "a"},
        {"ranks", "3-1"},
        {"and", "x"},
        {"not", "x"},
        {"name", "x"},
        {"hostlist", ""},
    };
    for (const auto& [op, value] : cases) {
        CAPTURE(op);
        CAPTURE(value);
        boost::json::object term;
        term[op] = boost::json::array{boost::json::string(value)};
        CHECK(jobspec::valid_constraint_operand(op, value) ==
              jobspec::constraint_from_json(term).ok());
    }
    CHECK(jobspec::valid_constraint_operand("properties", "ssd"));
    CHECK_FALSE(jobspec::valid_constraint_operand("hostlist", "foo[1-"));
    CHECK_FALSE(jobspec::valid_constraint_operand("or", "ssd"));
}

TEST_CASE("constraint - JSON round trip and the empty object") {
    auto c = jobspec::read_constraint(R"({"and":[{"properties":["ssd"]},{}]})");
    REQUIRE(c.ok());
    CHECK(boost::json::serialize(jobspec::to_json_value(c.value())) ==
          R"({"and":[{"properties":["ssd"]},{}]})");
    CHECK(c.value().children()[1] == jobspec::Constraint{"and", {}, {}});
}

TEST_CASE("constraint - matching is set algebra") {
    const auto r = cluster();
    const auto ranks = [&](std::string_view q) {
        return jobspec::parse_constraint_query(q).value().match(r).value().format();
    };
    CHECK(ranks("ssd") == "0-3,8-11");
    CHECK(ranks("ssd and not host:foo[1-3]") == "0,8-11");
    CHECK(ranks("host:bar[0-1] | rank:0") == "0,8-9");
    CHECK(ranks("^ssd") == "4-7,12-15");
    CHECK(ranks("nosuch").empty());
    auto other = jobspec::parse_constraint_query("state:up", {std::string("name"), {}}).value();
    CHECK_FALSE(other.match(r).ok());
}

TEST_CASE("constraint - matching 100,000 targets costs ranges, not targets") {
    jobspec::ResourceSet r;
    r.add(jobspec::IdSet::range(0, 99999), jobspec::IdSet::range(0, 63), {});
    REQUIRE(r.set_nodelist(*jobspec::model::decode_hostlist("node[0-99999]")));
    REQUIRE(r.set_property("xx", jobspec::IdSet::range(0, 49999)));
    auto c = jobspec::parse_constraint_query("xx and not host:node[100-199]").value();
    const auto m = c.match(r).value();
    CHECK(m.count() == 49900);
    CHECK(m.ranges().size() == 2);
}

TEST_CASE("feasibility - nodes, exclusivity and slots") {
    const auto r = cluster();
    CHECK(allocation({"-N4", "-n8", "-g1"}, r) ==
          "rank[0-3]/core[0-1],gpu[0-1] nslots=8 hosts=foo[0-3]");
    CHECK(allocation({"-N4", "-n8", "-g1"}, r, "not host:foo[0-1]") ==
          "rank[2-5]/core[0-1],gpu[0-1] nslots=8 hosts=foo[2-5]");
    CHECK(allocation({"-N4", "-n8", "-g1"}, r, "ssd and not host:foo[1-3]") ==
          "error: asks 4 nodes with 2 cores and 2 gpus each: of the 16 nodes, 5 match the "
          "constraints, 1 of those has 2 gpus");
    CHECK(allocation({"-N2", "--exclusive"}, r) ==
          "rank[0-1]/core[0-15],gpu[0-1] nslots=2 hosts=foo[0-1]");
    // Five slots of three cores fit a 16-core rank: four ranks, in order.
    CHECK(allocation({"-n20", "-c3"}, r) == "rank[0-3]/core[0-14] nslots=20 hosts=foo[0-3]");
}

TEST_CASE("feasibility - slot packing across ranks and what is missing") {
    const auto r = cluster();
    CHECK(allocation({"-n10", "-c8"}, r) == "rank[0-4]/core[0-15] nslots=10 hosts=foo[0-4]");
    CHECK(allocation({"-n100", "-c8"}, r) ==
          "error: asks 100 slots of 8 cores, each on one node: there are 16 nodes, which hold "
          "48 such slots");
    CHECK(allocation({"-n3", "-g1"}, r, "ssd") ==
          "rank0/core[0-1],gpu[0-1] rank1/core0,gpu0 nslots=3 hosts=foo[0-1]");
    CHECK(allocation({"-n9", "-g1"}, r, "ssd") ==
          "error: asks 9 slots of 1 core and 1 gpu, each on one node: of the 16 nodes, 8 "
          "match the constraints, 4 of those have 1 gpu; they hold 8 such slots");
}

TEST_CASE("feasibility - instance-local properties stay out of the allocation") {
    auto alloc = jobspec::match_jobspec(submitted({"-N1", "--requires=rank:15"}), cluster());
    REQUIRE(alloc.ok());
    CHECK(alloc.value().properties().empty());
}

TEST_CASE("query - errors after errors: the terms that parsed are still checked") {
    const auto codes = [](std::string_view query) {
        std::vector<std::string> out;
        for (const auto& d : jobspec::parse_constraint_query(query).diagnostics())
            out.push_back(std::string(d.code_name()) + "@" +
                          std::to_string(d.location.range.begin + 1));
        return out;
    };
    using V = std::vector<std::string>;
    CHECK(codes("a and or bogus:x") == V{"query.syntax@7", "query.unknown-operator@10"});
    CHECK(codes("bogus:x & & host:foo[") ==
          V{"query.unknown-operator@1", "query.syntax@11", "query.value@21"});
    CHECK(codes("not not") == V{"query.syntax@8"});
}

TEST_CASE("feasibility - an allocation keeps TreePool's topology of its ranks (RFC 49)") {
    auto r = jobspec::read_resource_set(
        R"({"version":1,"execution":{"R_lite":[{"rank":"4-7","children":{"core":"0-3"}}],)"
        R"("nodelist":["n[4-7]"]},"scheduling":{"writer":"TreePool","children":[)"
        R"({"ranks":"4-5","topo":{"cores":"0-3"}},{"ranks":"6-7","topo":{"cores":"0-1"}}]}})");
    REQUIRE(r.ok());
    auto alloc = jobspec::match_jobspec(submitted({"-N1"}), r.value());
    REQUIRE(alloc.ok());
    CHECK(boost::json::serialize(jobspec::to_json_value(alloc.value()).at("scheduling")) ==
          R"({"writer":"TreePool","children":[{"ranks":"4","topo":{"cores":"0-3"}}]})");
    // Another scheduler's key describes its own view of all of R: not the allocation's.
    r.value().scheduling = boost::json::parse(R"({"writer":"fluxion","graph":{}})");
    r.value().treepool.reset();
    CHECK(jobspec::match_jobspec(submitted({"-N1"}), r.value()).value().scheduling.is_null());
}
