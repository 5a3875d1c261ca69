// Dependency URIs, scheme rules, RFC 26 event semantics and workflow DAGs.
#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/workflow.hpp>

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

namespace {

/// The JSON object of a URI, or "error: CODE...".
std::string uri_json(std::string_view uri, bool allow_unknown = false) {
    auto r = jobspec::parse_dependency(uri, {allow_unknown, {}});
    if (!r.ok()) {
        std::string out = "error:";
        for (const auto& d : r.diagnostics())
            if (d.severity == jobspec::Severity::error)
                out += " " + std::string(d.code_name());
        return out;
    }
    return boost::json::serialize(jobspec::to_json_value(r.value()));
}

std::vector<std::string> warnings(std::string_view uri) {
    std::vector<std::string> out;
    for (const auto& d : jobspec::parse_dependency(uri).diagnostics())
        if (d.severity == jobspec::Severity::warning)
            out.emplace_back(d.code_name());
    return out;
}

/// "A->B B->C" for a workflow text, or "error: CODE...".
std::string edges(std::string_view workflow) {
    auto r = jobspec::read_workflow(workflow);
    if (!r.ok()) {
        std::string out = "error:";
        for (const auto& d : r.diagnostics())
            out += " " + std::string(d.code_name());
        return out;
    }
    std::string out;
    for (const auto& e : r.value().edges)
        out += (out.empty() ? "" : " ") + r.value().jobs[e.from].name + "->" +
               r.value().jobs[e.to].name;
    return out;
}

} // namespace

TEST_CASE("dependency - URIs to objects") {
    CHECK(uri_json("afterok:ƒ2oLkTLb") == R"({"scheme":"afterok","value":"ƒ2oLkTLb"})");
    CHECK(uri_json("string:foo?type=out;scope=user") ==
          R"({"scheme":"string","value":"foo","type":"out","scope":"user"})");
    CHECK(uri_json("string:foo?type=out&scope=user") ==
          R"({"scheme":"string","value":"foo","type":"out","scope":"user"})");
    // The value as written, as flux-core keeps it; options decoded as a form.
    CHECK(uri_json("string:a%20b%3Fc?type=%69n&scope=global") ==
          R"({"scheme":"string","value":"a%20b%3Fc","type":"in","scope":"global"})");
    CHECK(uri_json("begin-time:1763805600.5") ==
          R"({"scheme":"begin-time","value":"1763805600.5"})");
    CHECK(uri_json("singleton") == R"({"scheme":"singleton","value":""})");
    CHECK(uri_json("singleton:") == R"({"scheme":"singleton","value":""})");
    CHECK(uri_json("afterany:hungry-hippo") == "error: dependency.bad-fluid");
    CHECK(uri_json("site:x?level=3", true) == R"({"scheme":"site","value":"x","level":3})");
    CHECK(uri_json("fluid:ƒuZZybuNNy?type=in&scope=user") ==
          R"({"scheme":"fluid","value":"ƒuZZybuNNy","type":"in","scope":"user"})");
}

TEST_CASE("dependency - scheme rules") {
    CHECK(uri_json("site:x") == "error: dependency.unknown-scheme");
    CHECK(uri_json("afterok") == "error: dependency.missing-value");
    CHECK(uri_json("afterok:") == "error: dependency.missing-value");
    CHECK(uri_json("begin-time:-5") == "error: dependency.begin-time");
    CHECK(uri_json("begin-time:tomorrow") == "error: dependency.begin-time");
    CHECK(uri_json("string:foo?scope=user") == "error: dependency.type");
    CHECK(uri_json("string:foo?type=out") == "error: dependency.scope");
    CHECK(uri_json("string:foo?type=outs&scope=user") == "error: dependency.type");
    CHECK(uri_json("fluid:xyz?type=in&scope=user") == "error: dependency.bad-fluid");
    CHECK(uri_json("singleton:x") == "error: dependency.unexpected-value");
    CHECK(uri_json("string:foo?type=in&type=out&scope=user") == "error: dependency.type");
    CHECK(uri_json("afterok:1?value=2") == "error: dependency.option");
    CHECK(warnings("after:1") == std::vector<std::string>{"dependency.deprecated-scheme"});
    CHECK(warnings("afterok:1?why=because") ==
          std::vector<std::string>{"dependency.unknown-option"});
    CHECK(warnings("afterstart:1").empty());
    auto typo = jobspec::parse_dependency("aftrok:1");
    CHECK(typo.diagnostics()[0].help == "did you mean 'afterok'?");
}

TEST_CASE("dependency - URI syntax") {
    CHECK(uri_json("") == "error: dependency.syntax");
    CHECK(uri_json(":x") == "error: dependency.syntax");
    CHECK(uri_json("after ok:1") == "error: dependency.syntax");
    CHECK(uri_json("9lives:1") == "error: dependency.syntax");
    CHECK(uri_json("afterok:1?") == "error: dependency.syntax");
    CHECK(uri_json("afterok:1?type") == "error: dependency.syntax");
    CHECK(uri_json("afterok:1?a=b&") == "error: dependency.syntax");
    CHECK(uri_json("afterok:1?=b") == "error: dependency.syntax");
    CHECK(uri_json("afterok:1\n") == "error: dependency.syntax");
    CHECK(uri_json("string:a?type=in&scope=user%2") == "error: dependency.percent-escape");
    CHECK(uri_json("string:a?type=in&scope=user%ff") == "error: dependency.invalid-utf8");
    auto r = jobspec::parse_dependency("afterok:ƒuZZ0ybuNNy");
    REQUIRE(r.diagnostics().size() == 1);
    CHECK(r.diagnostics()[0].location.range.begin == 13); // the '0'
}

TEST_CASE("dependency - documents are lenient where RFC 14's examples need it") {
    jobspec::Dependency d;
    d.scheme = "fluid";
    d.value = "hungry-hippo-white-elephant";
    d.options = {{"type", "in", {}, {}}, {"scope", "user", {}, {}}};
    jobspec::Diagnostics doc;
    jobspec::check_dependency(d, jobspec::DependencyContext::document, false, "/x", doc);
    REQUIRE(doc.size() == 1);
    CHECK(doc[0].severity == jobspec::Severity::warning);
    CHECK(doc[0].location.pointer == "/x/value");
    jobspec::Diagnostics cli;
    jobspec::check_dependency(d, jobspec::DependencyContext::command_line, false, "", cli);
    CHECK(cli.has_errors());
}

TEST_CASE("dependency - RFC 26 event semantics, rule by rule") {
    using Add = jobspec::DependencySet::AddResult;
    using Remove = jobspec::DependencySet::RemoveResult;
    jobspec::DependencySet set;
    CHECK(set.may_leave_depend()); // nothing added
    CHECK(set.add("after-finish=ƒ1") == Add::added);
    CHECK_FALSE(set.may_leave_depend());
    // A duplicate add of an unsatisfied dependency is ignored, not an error.
    CHECK(set.add("after-finish=ƒ1") == Add::duplicate);
    CHECK(set.outstanding() == 1);
    CHECK(set.add("begin-time=10") == Add::added);
    CHECK(set.remove("after-finish=ƒ1") == Remove::removed);
    CHECK_FALSE(set.may_leave_depend());
    // A duplicate add of a satisfied dependency is an error.
    CHECK(set.add("after-finish=ƒ1") == Add::error);
    CHECK(set.remove("after-finish=ƒ1") == Remove::duplicate);
    CHECK(set.remove("never-added") == Remove::unknown);
    CHECK(set.remove("begin-time=10") == Remove::removed);
    CHECK(set.may_leave_depend());
}

TEST_CASE("workflow - RFC 26 example 1: a chain with inout") {
    const std::string job =
        "  dependencies: [{type: inout, scope: user, scheme: string, value: foo}]\n";
    CHECK(edges("- name: J1\n" + job + "- name: J2\n" + job + "- name: J3\n" + job) ==
          "J1->J2 J2->J3");
}

TEST_CASE("workflow - RFC 26 example 3: a fan-out") {
    const std::string a =
        "- name: A\n  dependencies: [{type: out, scope: user, scheme: string, value: A}]\n";
    const std::string b = "  dependencies: [{type: in, scope: user, scheme: string, value: A},\n"
                          "                 {type: out, scope: user, scheme: string, value: B}]\n";
    const std::string c =
        "- name: C\n  dependencies: [{type: in, scope: user, scheme: string, value: B}]\n";
    CHECK(edges(a + "- name: B1\n" + b + "- name: B2\n" + b + "- name: B3\n" + b + c) ==
          "A->B1 A->B2 A->B3 B1->C B2->C B3->C");
    auto r = jobspec::read_workflow(a + "- name: B1\n" + b + c);
    REQUIRE(r.ok());
    CHECK(r.value().order == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("workflow - scopes, fluid ids and after*") {
    // user scope: only the same user's jobs match; global reaches everyone's.
    CHECK(edges("- {name: A, user: ann, dependencies: ['string:x?type=out&scope=user']}\n"
                "- {name: B, user: bob, dependencies: ['string:x?type=in&scope=user']}\n"
                "- {name: C, user: ann, dependencies: ['string:x?type=in&scope=user']}\n") ==
          "A->C");
    CHECK(edges("- {name: A, user: ann, dependencies: ['string:x?type=out&scope=global']}\n"
                "- {name: B, user: bob, dependencies: ['string:x?type=in&scope=global']}\n") ==
          "A->B");
    CHECK(edges("- {name: A, user: ann, dependencies: ['string:x?type=out&scope=global']}\n"
                "- {name: B, user: bob, dependencies: ['string:x?type=in&scope=user']}\n")
              .empty());
    // fluid: every job with an id gets an automatic out of it (any encoding matches).
    CHECK(edges("- {name: A, id: '1234'}\n"
                "- {name: B, dependencies: ['fluid:0x4d2?type=in&scope=user']}\n") == "A->B");
    // after*: by id; a job outside the workflow becomes an external node.
    auto r =
        jobspec::read_workflow("- {name: A, id: ƒ2oLkTLb}\n"
                               "- {name: B, dependencies: ['afterok:ƒ2oLkTLb', 'afterany:99']}\n");
    REQUIRE(r.ok());
    REQUIRE(r.value().jobs.size() == 3);
    CHECK(r.value().jobs[2].external);
    CHECK(r.value().edges.size() == 2);
    CHECK(edges("- {name: A, id: '1', dependencies: ['afterok:2']}\n"
                "- {name: B, id: '2', dependencies: ['afterok:1']}\n") ==
          "error: dependency.cycle");
}

TEST_CASE("workflow - malformed workflows") {
    CHECK(edges("a: 1") == "error: dependency.workflow");
    CHECK(edges("- {id: '1'}") == "error: dependency.workflow");
    CHECK(edges("- {name: A}\n- {name: A}") == "error: dependency.workflow");
    CHECK(edges("- {name: A, id: nope-nope}") == "error: dependency.workflow");
    CHECK(edges("- {name: A, dependencies: [3]}") == "error: dependency.workflow");
    CHECK(edges("- {name: A, dependencies: ['afterok:zz0']}") == "error: dependency.bad-fluid");
    auto r = jobspec::read_workflow("- name: A\n  dependencies: ['afterok:ƒ0']\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics()[0].location.range.begin == 38); // the '0' inside the document
    CHECK(r.diagnostics()[0].location.pointer == "/0/dependencies/0/value");
}
