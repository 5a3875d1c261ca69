// Every limit in DESIGN.md, in every reader, at the limit and one past it (limits.hpp).
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <utility>

#include "model/decoders.hpp"
#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/document.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/shape.hpp>

using jobspec::Limits;

namespace {

/// The first error's code, or "" when there is none.
template <class T>
std::string first_error(const jobspec::Result<T>& r) {
    for (const auto& d : r.diagnostics())
        if (d.severity == jobspec::Severity::error)
            return std::string(d.code_name());
    return "";
}

/// Each reader, as text + limits -> its first error.
using Reader = std::string (*)(const std::string&, const Limits&);

std::string shape(const std::string& text, const Limits& limits) {
    return first_error(jobspec::compile_shape(text, {"default", limits}));
}
std::string dependency(const std::string& text, const Limits& limits) {
    return first_error(jobspec::parse_dependency(text, {false, limits}));
}
std::string query(const std::string& text, const Limits& limits) {
    return first_error(jobspec::parse_constraint_query(text, {std::nullopt, limits}));
}
std::string constraint_json(const std::string& text, const Limits& limits) {
    return first_error(jobspec::read_constraint(text, limits));
}
std::string resource_set(const std::string& text, const Limits& limits) {
    return first_error(jobspec::read_resource_set(text, limits));
}
std::string jobspec_doc(const std::string& text, const Limits& limits) {
    return first_error(
        jobspec::read_jobspec(text, {jobspec::DocumentFormat::automatic, false, limits}));
};

const char* const valid_jobspec = R"({"version": 1,
 "resources": [{"type": "slot", "count": 1, "label": "task",
                "with": [{"type": "core", "count": 1}]}],
 "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
 "attributes": {"system": {"duration": 0}}})";
const char* const valid_r =
    R"({"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0"}}], "nodelist": ["n0"]}})";

/// The deepest nesting `make(n)` a reader accepts with max_depth = 10, searching 1..40.
int deepest_accepted(const Reader& read, const std::function<std::string(int)>& make) {
    Limits limits;
    limits.max_depth = 10;
    int deepest = 0;
    for (int n = 1; n <= 40; ++n) {
        CAPTURE(make(n));
        const std::string code = read(make(n), limits);
        if (code == "limit.depth")
            break;
        deepest = n;
    }
    return deepest;
}

} // namespace

TEST_CASE("limits - input size: the limit passes, one byte more does not") {
    const std::pair<Reader, std::string> inputs[] = {
        {shape, "slot=2/core"},
        {dependency, "afterok:1234"},
        {query, "ssd and not host:foo[1-3]"},
        {constraint_json, R"({"properties": ["ssd"]})"},
        {resource_set, valid_r},
        {jobspec_doc, valid_jobspec},
    };
    for (const auto& input : inputs) {
        const Reader read = input.first;
        const std::string& text = input.second;
        CAPTURE(text);
        Limits limits;
        limits.max_input_bytes = text.size();
        CHECK(read(text, limits) == "");
        limits.max_input_bytes = text.size() - 1;
        CHECK(read(text, limits) == "limit.input-size");
    }
}

TEST_CASE("limits - nesting: max_depth levels pass, one more does not") {
    // A level is a '/' step or bracket in a shape, a parenthesis in a query, and an
    // object or array in JSON and YAML (the document itself is the first).
    CHECK(deepest_accepted(shape, [](int n) {
              std::string s = "a";
              for (int i = 0; i < n; ++i)
                  s += "/a";
              return s;
          }) == 10);
    CHECK(deepest_accepted(query, [](int n) {
              return std::string(n, '(') + "ssd" + std::string(n, ')');
          }) == 10);
    CHECK(deepest_accepted(constraint_json, [](int n) {
              std::string s = R"({"properties": ["a"]})";
              for (int i = 1; i < n; ++i)
                  s = std::string(R"({"not": [)").append(s).append("]}");
              return s;
          }) == 5); // 2 levels each: 4 nots and the innermost object and array
    CHECK(deepest_accepted(resource_set, [](int n) {
              const std::string r = valid_r;
              return r.substr(0, r.size() - 1) + R"(, "scheduling": )" + std::string(n, '[') +
                     std::string(n, ']') + "}";
          }) == 9); // and the document
    CHECK(deepest_accepted(jobspec_doc, [](int n) {
              const std::string doc = valid_jobspec;
              return doc.substr(0, doc.size() - 3) + R"(, "x": )" + std::string(n, '[') +
                     std::string(n, ']') + "}}}";
          }) == 7); // and the document, attributes and system
}

TEST_CASE("limits - integers: 2^63-1 is the largest count or id, 2^64-1 the largest host number") {
    const std::string max = "9223372036854775807";
    const std::string over = "9223372036854775808";
    CHECK(shape("core=" + max, {}) == "");
    CHECK(shape("core=" + over, {}) == "limit.integer");
    CHECK(jobspec::model::decode_idset(max));
    CHECK(jobspec::model::decode_idset(over).error().kind == jobspec::model::IdSetError::overflow);
    // RFC 29 sets no bound; flux-core numbers hosts with 64 bits.
    CHECK(jobspec::model::decode_hostlist("n[" + over + "]"));
    CHECK(jobspec::model::decode_hostlist("n[18446744073709551615]"));
    CHECK(jobspec::model::decode_hostlist("n[18446744073709551616]").error().kind ==
          jobspec::model::HostlistError::overflow);
    const auto r_with_rank = [&](const std::string& rank) {
        return R"({"version": 1, "execution": {"R_lite": [{"rank": ")" + rank +
               R"(", "children": {"core": "0"}}], "nodelist": ["n0"]}})";
    };
    CHECK(resource_set(r_with_rank(max), {}) == "");
    CHECK(resource_set(r_with_rank(over), {}) == "R.idset");
    std::string doc = valid_jobspec;
    doc.replace(doc.find("\"count\": 1"), 10, "\"count\": " + max);
    CHECK(jobspec_doc(doc, {}) == "");
    doc.replace(doc.find(max), max.size(), over);
    CHECK(jobspec_doc(doc, {}) == "limit.integer");
}

TEST_CASE("limits - idsets and hostlists never expand id by id") {
    const auto all = jobspec::model::decode_idset("0-9223372036854775807");
    REQUIRE(all);
    CHECK(all->count() == 9223372036854775808ULL);
    CHECK(all->ranges().size() == 1);
    const auto hosts = jobspec::model::decode_hostlist("node[0-9223372036854775806]");
    REQUIRE(hosts);
    CHECK(hosts->count() == 9223372036854775807ULL);
    CHECK(hosts->nth(9223372036854775806ULL) == "node9223372036854775806");
    CHECK(hosts->find("node4611686018427387904") == 4611686018427387904ULL);
}

TEST_CASE("limits - YAML aliases: the budget passes, one node more does not") {
    // *x adds the 4 nodes of [1, 2, 3]; two of them add 8.
    const std::string doc = "a: &x [1, 2, 3]\nb: [*x, *x]\n";
    Limits limits;
    limits.max_alias_nodes = 8;
    CHECK(jobspec_doc(doc, limits) != "limit.aliases");
    limits.max_alias_nodes = 7;
    CHECK(jobspec_doc(doc, limits) == "limit.aliases");
    CHECK(jobspec_doc("a: &x [1, *x]\n", {}) == "jobspec.yaml-alias");
}

TEST_CASE("limits - the diagnostics cap: N errors, then limit.diagnostics") {
    std::string many = "version: 1\nresources:\n";
    for (int i = 0; i < 20; ++i)
        many += "  - {type: core, count: 0}\n";
    jobspec::ReadOptions options;
    options.limits.max_diagnostics = 5;
    const auto r = jobspec::read_jobspec(many, options);
    REQUIRE(r.diagnostics().size() == 6);
    CHECK(r.diagnostics()[5].code_name() == "limit.diagnostics");
    options.limits.max_diagnostics = 100;
    CHECK(jobspec::read_jobspec(many, options).diagnostics().size() > 6);
}

TEST_CASE("limits - resource vertices: the limit passes, one more does not") {
    // Counted at every level: a slot holding a node holding a core is three.
    Limits limits;
    limits.max_vertices = 3;
    CHECK(shape("slot/node/core", limits) == "");
    CHECK(shape("slot/node/[core;gpu]", limits) == "limit.vertices");
    CHECK(jobspec_doc(valid_jobspec, limits) == "");
    limits.max_vertices = 1;
    CHECK(jobspec_doc(valid_jobspec, limits) == "limit.vertices");
    const auto r =
        jobspec::read_jobspec(valid_jobspec, {jobspec::DocumentFormat::json, false, limits});
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics()[0].location.pointer == "/resources/0/with/0");
}

TEST_CASE("limits - constraint terms: the limit passes, one more does not") {
    // Each operator and each value is a term: or, properties, a, b, hostlist, h.
    const std::string query = "(a,b) or host:h";
    const std::string object = R"({"or": [{"properties": ["a", "b"]}, {"hostlist": ["h"]}]})";
    Limits limits;
    limits.max_constraint_terms = 6;
    CHECK(jobspec::parse_constraint_query(query, {std::nullopt, limits}).value() ==
          jobspec::read_constraint(object, {}).value());
    CHECK(first_error(jobspec::parse_constraint_query(query, {std::nullopt, limits})) == "");
    CHECK(constraint_json(object, limits) == "");
    std::string doc = valid_jobspec;
    doc.replace(doc.find(R"("duration": 0)"), 13, R"("duration": 0, "constraints": )" + object);
    CHECK(jobspec_doc(doc, limits) == "");
    limits.max_constraint_terms = 5;
    CHECK(first_error(jobspec::parse_constraint_query(query, {std::nullopt, limits})) ==
          "limit.constraint-terms");
    CHECK(constraint_json(object, limits) == "limit.constraint-terms");
    CHECK(jobspec_doc(doc, limits) == "limit.constraint-terms");
}

TEST_CASE("limits - set by the command line's names, positive values only") {
    jobspec::Limits limits;
    CHECK(limits.set("max-input-bytes", 5));
    CHECK(limits.max_input_bytes == 5);
    CHECK(limits.set("max_depth", jobspec::Limits::depth_ceiling)); // '_' for '-'
    CHECK(limits.max_depth == jobspec::Limits::depth_ceiling);
    CHECK_FALSE(limits.set("max-depth", jobspec::Limits::depth_ceiling + 1));
    CHECK(limits.set("max-diagnostics", jobspec::Limits::diagnostics_ceiling));
    CHECK_FALSE(limits.set("max-diagnostics", jobspec::Limits::diagnostics_ceiling + 1));
    CHECK(limits.max_diagnostics == jobspec::Limits::diagnostics_ceiling);
    CHECK(limits.set("max-diagnostics", 1));
    CHECK(limits.set("max-alias-nodes", 7));
    CHECK(limits.max_alias_nodes == 7);
    CHECK(limits.set("max-vertices", 9));
    CHECK(limits.max_vertices == 9);
    CHECK(limits.set("max_constraint_terms", 11));
    CHECK(limits.max_constraint_terms == 11);
    CHECK_FALSE(limits.set("max-alias-nodes", 0));
    CHECK_FALSE(limits.set("max-inputbytes", 5));
    CHECK_FALSE(limits.set("max-depth-", 5));
    CHECK(limits.max_alias_nodes == 7); // nothing changed by a refusal
}
