// Semantic rules pinned from both sides: for each rule a valid document that sits exactly
// on it (nothing reported, not even a warning) and the smallest step past it.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/workflow.hpp>

#include "match/xor_candidates.hpp"

namespace {

/// A V1-shaped jobspec in YAML with `resources`, `tasks` and `attributes` filled in.
std::string document(std::string_view resources, std::string_view tasks,
                     std::string_view attributes = "{system: {duration: 0}}") {
    return "version: 1\nresources: " + std::string(resources) + "\ntasks: " + std::string(tasks) +
           "\nattributes: " + std::string(attributes) + "\n";
}

const std::string slot_core = "[{type: slot, count: 1, label: s, with: [{type: core, count: 1}]}]";
const std::string task_s = "[{command: [app], slot: s, count: {per_slot: 1}}]";

/// Every diagnostic of reading `text` as "severity code pointer"; empty when nothing is said.
std::vector<std::string> said(std::string_view text, bool v1 = false) {
    jobspec::ReadOptions options;
    options.v1 = v1;
    std::vector<std::string> out;
    for (const auto& d : jobspec::read_jobspec(text, options).diagnostics())
        out.push_back(std::string(d.severity == jobspec::Severity::error ? "error " : "warning ") +
                      std::string(d.code_name()) + " " + d.location.pointer);
    return out;
}

using Said = std::vector<std::string>;

std::string shape_json(std::string_view shape) {
    auto r = jobspec::compile_shape(shape);
    for (const auto& d : r.diagnostics())
        if (d.severity == jobspec::Severity::error)
            return "error: " + std::string(d.code_name());
    std::string out = jobspec::to_json_text(r.value());
    out.pop_back();
    return out;
}

std::string constraint_text(const jobspec::Result<jobspec::Constraint>& r) {
    if (!r.ok())
        return "error: " + std::string(r.diagnostics().begin()->code_name());
    std::string out = jobspec::to_json_text(jobspec::to_json_value(r.value()));
    out.pop_back();
    return out;
}

} // namespace

TEST_CASE("semantics - a task's slot must be some slot's label, \"\" too") {
    CHECK(said(document(slot_core, task_s)) == Said{});
    CHECK(said(document(slot_core, "[{command: [app], slot: '', count: {per_slot: 1}}]")) ==
          Said{"error jobspec.unknown-slot /tasks/0/slot"});
    CHECK(said(R"({"version": 1, "resources": [{"type": "slot", "count": 1, "label": "default",
                   "with": [{"type": "core", "count": 1}]}], "tasks": [{"command": ["app"],
                   "slot": "", "count": {"per_slot": 1}}], "attributes": {}})") ==
          Said{"error jobspec.unknown-slot /tasks/0/slot"});
    // A label that is not a string labels nothing, not even "".
    CHECK(said(document("[{type: slot, count: 1, label: 5, with: [{type: core, count: 1}]}]",
                        "[{command: [app], slot: '', count: {per_slot: 1}}]")) ==
          Said{"error jobspec.key-type /resources/0/label",
               "error jobspec.unknown-slot /tasks/0/slot"});
    // Reading says what is wrong with a missing or non-string slot; nothing more follows.
    CHECK(said(document(slot_core, "[{command: [app], count: {per_slot: 1}}]")) ==
          Said{"error jobspec.missing-key /tasks/0"});
    CHECK(said(document(slot_core, "[{command: [app], slot: [s], count: {per_slot: 1}}]")) ==
          Said{"error jobspec.key-type /tasks/0/slot"});
    // Built in code: the same rule.
    auto js = jobspec::read_jobspec(document(slot_core, task_s));
    REQUIRE(js.ok());
    jobspec::Jobspec copy = js.value();
    copy.tasks[0].slot = "";
    CHECK(jobspec::check_jobspec(copy).has_errors());
    copy.tasks[0].slot = "s";
    CHECK_FALSE(jobspec::check_jobspec(copy).has_errors());
}

TEST_CASE("semantics - a jobspec built in code must hold UTF-8 everywhere") {
    auto js = jobspec::read_jobspec(document(slot_core, task_s));
    REQUIRE(js.ok());
    const auto codes = [](const jobspec::Jobspec& j) {
        std::vector<std::string> out;
        for (const auto& d : jobspec::check_jobspec(j))
            out.push_back(std::string(d.code_name()) + " " + d.location.pointer);
        return out;
    };
    jobspec::Jobspec key = js.value();
    key.attributes.user = boost::json::object{{"bad\xff", 1}};
    CHECK(codes(key) == Said{"jobspec.invalid-utf8 /attributes/user"});
    jobspec::Jobspec property = js.value();
    property.resources[0].properties.push_back({"k\xc3", boost::json::value("v"), {}, {}});
    // Only the encoding is reported: a later pass would quote the bytes that are not text
    // (this key's pointer, an unknown slot's name).
    CHECK(codes(property) == Said{"jobspec.invalid-utf8 /resources/0"});
    jobspec::Jobspec slot = js.value();
    slot.tasks[0].slot = "s\xff";
    CHECK(codes(slot) == Said{"jobspec.invalid-utf8 /tasks/0/slot"});
    slot.tasks[0].slot = "s";
    slot.tasks[0].command = {"\xff"};
    slot.resources[0].properties.push_back({"extra", boost::json::value("v"), {}, {}});
    CHECK(codes(slot) == Said{"jobspec.invalid-utf8 /tasks/0/command/0"});
}

TEST_CASE("semantics - per_resource names a type anywhere in the slot") {
    const std::string deep = "[{type: slot, count: 1, label: s, with: [{type: socket, count: 1, "
                             "with: [{type: core, count: 2}]}]}]";
    CHECK(said(document(deep, "[{command: [app], slot: s, count: {per_resource: {type: core, "
                              "count: 1}}}]")) == Said{});
    CHECK(said(document(deep, "[{command: [app], slot: s, count: {per_resource: {type: gpu, "
                              "count: 1}}}]")) ==
          Said{"error jobspec.per-resource-type /tasks/0/count/per_resource/type"});
}

TEST_CASE("semantics - pointers after a problem deep in a task") {
    CHECK(said(document(slot_core, "[{command: [app], slot: s, count: {per_resource: {type: "
                                   "gpu, count: 1}}, attributes: {x: 1}}]")) ==
          Said{"error jobspec.per-resource-type /tasks/0/count/per_resource/type",
               "error jobspec.key-type /tasks/0/attributes/x"});
}

TEST_CASE("semantics - system attributes at their edges") {
    const auto with = [](std::string_view system) {
        return said(document(slot_core, task_s, "{system: " + std::string(system) + "}"));
    };
    CHECK(with("{duration: 0}") == Said{});
    CHECK(with("{duration: 0.0, preemptible-after: 0}") == Said{});
    CHECK(with("{duration: 9223372036854775808}") == Said{});
    CHECK(with("{duration: 18446744073709551615}") == Said{});
    CHECK(with("{duration: -0.5}") ==
          Said{"error jobspec.attribute-value /attributes/system/duration"});
    CHECK(with("{duration: -1}") ==
          Said{"error jobspec.attribute-value /attributes/system/duration"});
    CHECK(with("{duration: '1'}") == Said{"error jobspec.key-type /attributes/system/duration"});
    CHECK(with("{environment: {A: '1', B: null}}") == Said{});
    CHECK(with("{environment: {A: 1}}") ==
          Said{"error jobspec.key-type /attributes/system/environment/A"});
    CHECK(with("{files: {a: {data: x}}, shell: {options: {}}, job: {name: x}}") == Said{});
    CHECK(with("{files: 5}") == Said{"error jobspec.key-type /attributes/system/files"});
    CHECK(with("{dependencies: [afterok]}") ==
          Said{"error jobspec.key-type /attributes/system/dependencies/0"});
    CHECK(with("{dependencies: []}") ==
          Said{"error jobspec.dependency /attributes/system/dependencies"});
    CHECK(with("{dependencies: [{scheme: afterok, value: '1'}]}") == Said{});
    // RFC 14's examples use schemes of their own: a warning in a document, not an error.
    CHECK(with("{dependencies: [{scheme: nosuch, value: x}]}") ==
          Said{"warning dependency.unknown-scheme /attributes/system/dependencies/0/scheme"});
    CHECK(with("{dependencies: [{scheme: singleton, value: ''}]}") == Said{});
    CHECK(with("{dependencies: [{scheme: singleton, value: x}]}") ==
          Said{"error dependency.unexpected-value /attributes/system/dependencies/0/value"});
    // JSON pointers escape '~' and '/' in keys (RFC 6901).
    CHECK(with("{'a~b/c': 1}") ==
          Said{"warning jobspec.unknown-system-attribute /attributes/system/a~0b~1c"});
    CHECK(said(document(slot_core, task_s, "{system: {duration: 0}, user: {'x': 1}}")) == Said{});
    // Attributes may be null in a canonical jobspec; V1 needs system.duration.
    CHECK(said(document(slot_core, task_s, "null")) == Said{});
    CHECK(said(document(slot_core, task_s, "null"), true) ==
          Said{"error v1.attributes /attributes"});
}

TEST_CASE("semantics - vertex keys and counts") {
    CHECK(said(document("[{type: slot, count: 1, label: s, id: x1, with: [{type: core, count: 1, "
                        "unit: u, exclusive: false}]}]",
                        task_s)) == Said{});
    CHECK(said(document("[{type: slot, count: 1, label: s, with: []}]", task_s)) ==
          Said{"error jobspec.empty-with /resources/0/with"});
    CHECK(said(document("[{type: slot, count: 1, label: s, with: [{type: core, count: 1}]}, "
                        "{type: slot, count: 1, label: s, with: [{type: core, count: 1}]}]",
                        task_s)) == Said{"error jobspec.duplicate-label /resources/1/label"});
    const auto count = [](std::string_view c) {
        return said(document("[{type: slot, count: 1, label: s, with: [{type: core, count: " +
                                 std::string(c) + "}]}]",
                             task_s));
    };
    CHECK(count("1") == Said{});
    CHECK(count("'1'") == Said{});
    CHECK(count("0") == Said{"error jobspec.count-not-positive /resources/0/with/0/count"});
    CHECK(count("{min: 3, max: 3}") == Said{});
    CHECK(count("{min: 1, max: 4, operator: '*', operand: 2}") == Said{});
    CHECK(count("{min: 2, operator: '^', operand: 2}") == Said{});
    CHECK(count("{min: 1, operator: '+'}") ==
          Said{"error jobspec.range-step /resources/0/with/0/count"});
    CHECK(count("{min: 1, operand: 2}") ==
          Said{"error jobspec.range-step /resources/0/with/0/count"});
}

TEST_CASE("semantics - V1 at its edges") {
    const std::string node = "[{type: node, count: 2, exclusive: true, with: [{type: slot, "
                             "count: 1, label: s, exclusive: false, with: [{type: core, count: "
                             "1, unit: x}, {type: gpu, count: 1}]}]}]";
    CHECK(said(document(node, task_s), true) == Said{});
    CHECK(said(document(node, "[{command: [app], slot: s, count: {total: 2}}]"), true) == Said{});
    CHECK(said(document(node, "[{command: [app], slot: s, count: {total: 1}}]"), true) ==
          Said{"error v1.task-count /tasks/0/count"});
    CHECK(said(document(node, "[{command: [app], slot: s, count: {per_slot: 2}}]"), true) ==
          Said{"error v1.task-count /tasks/0/count"});
    const std::string slot_gpu = "[{type: slot, count: 2, label: s, with: [{type: core, count: "
                                 "1}, {type: gpu, count: 1}]}]";
    CHECK(said(document(slot_gpu, task_s), true) == Said{});
    CHECK(
        said(document("[{type: slot, count: 1, label: s, with: [{type: gpu, count: 1}]}]", task_s),
             true) == Said{"error v1.graph-shape /resources/0"});
}

TEST_CASE("semantics - a document is JSON when its first non-blank is '{' or '['") {
    // 0x1 is an integer to YAML, and no JSON number.
    const std::string text = "\t\r\n {\"version\": 0x1}";
    CHECK(said(text) == Said{"error jobspec.json-syntax "});
    CHECK(said("version: 0x1") != Said{"error jobspec.json-syntax "});
}

TEST_CASE("semantics - JSON objects find duplicate keys past the index threshold") {
    std::string text = "{";
    for (int i = 0; i < 20; ++i)
        text += "\"k" + std::to_string(i) + "\": 1, ";
    text += "\"k0\": 2}";
    jobspec::Diagnostics d = jobspec::read_jobspec(text).diagnostics();
    REQUIRE_FALSE(d.empty());
    CHECK(d.begin()->code_name() == "jobspec.duplicate-key");
    CHECK(d.begin()->location.pointer == "/k0");
}

TEST_CASE("semantics - shape values are JSON where JSON says so") {
    CHECK(shape_json("node{a:01,b:-0,c:1,d:1.5e3,e:false,f:true,g:null,h:0.5}") ==
          R"([{"type":"node","count":1,"a":"01","b":0,"c":1,"d":1500.0,"e":false,"f":true,)"
          R"("g":null,"h":0.5}])");
    CHECK(shape_json(R"(node{"x",y:"x"}/core{x})") ==
          R"([{"type":"node","count":1,"x":true,"y":"x","with":[{"type":"core","count":1,)"
          R"("exclusive":true}]}])");
    CHECK(shape_json("node{a:9223372036854775807}") ==
          R"([{"type":"node","count":1,"a":9223372036854775807}])");
    CHECK(shape_json("node{a:9223372036854775808}") == "error: limit.integer");
    CHECK(shape_json("node{a:-9223372036854775809}") == "error: limit.integer");
    CHECK(shape_json("slot{a}/core") ==
          R"([{"type":"slot","count":1,"label":"a","with":[{"type":"core","count":1}]}])");
    CHECK(
        shape_json("slot{a,unit:u}/core") ==
        R"([{"type":"slot","count":1,"label":"a","unit":"u","with":[{"type":"core","count":1}]}])");
    CHECK(shape_json("[slot=3,1/core]") == "error: shape.idset-order");
}

TEST_CASE("semantics - dependency rules") {
    const auto first = [](std::string_view uri) {
        auto r = jobspec::parse_dependency(uri);
        return r.diagnostics().empty() ? std::string()
                                       : std::string(r.diagnostics().begin()->code_name());
    };
    CHECK(first("string:a?type=inout&scope=user") == "");
    CHECK(first("string:a?type=in&scope=global") == "");
    CHECK(first("string:a?type=in&type=in&scope=user") == "dependency.type"); // ["in","in"]
    CHECK(first("singleton") == "");
    CHECK(first("singleton:x") == "dependency.unexpected-value");
}

TEST_CASE("semantics - constraints: RFC 31 operators and their values") {
    const auto json = [](std::string_view text) {
        return constraint_text(jobspec::read_constraint(text));
    };
    CHECK(json(R"({})") == "{}");
    CHECK(json(R"({"and":[]})") == "{}");
    CHECK(json(R"({"not":[{"properties":["a"]}]})") == R"({"not":[{"properties":["a"]}]})");
    CHECK(json(R"({"not":[{"properties":["a"]},{"properties":["b"]}]})") ==
          "error: constraint.arity");
    CHECK(json(R"({"properties":["^a","b@c"]})") == R"({"properties":["^a","b@c"]})");
    CHECK(json(R"({"properties":["a^b"]})") == "error: constraint.value");
    const auto query = [](std::string_view q) {
        return constraint_text(jobspec::parse_constraint_query(q));
    };
    CHECK(query("host:n[1-2]") == R"({"hostlist":["n[1-2]"]})");
    CHECK(query("hosts:n1") == R"({"hostlist":["n1"]})");
    CHECK(query("rank:1") == R"({"ranks":["1"]})");
    CHECK(query("a and b") == R"({"properties":["a","b"]})");
    CHECK(query("a,") == "error: query.value");
    CHECK(query("a,,b") == "error: query.value");
    auto r = jobspec::parse_constraint_query("host:'n[1-'");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().begin()->location.range.begin == 10);
    r = jobspec::parse_constraint_query("rank:\"1,x\"");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().begin()->location.range.begin == 8);
}

TEST_CASE("semantics - workflow dependencies in dictionaries need a scheme and a value") {
    const auto first = [](std::string_view text) {
        auto r = jobspec::read_workflow(text);
        return r.ok() ? std::string() : std::string(r.diagnostics().begin()->code_name());
    };
    CHECK(first("- name: a\n  dependencies: [{scheme: singleton, value: ''}]\n") == "");
    CHECK(first("- name: a\n  dependencies: [{scheme: singleton}]\n") == "dependency.workflow");
    CHECK(first("- name: a\n  dependencies: [{value: x}]\n") == "dependency.workflow");
    // An error inside a URI points inside it, quoted or not.
    auto r = jobspec::read_workflow("- name: a\n  dependencies: [\"afterok:f0\"]\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().begin()->location.range.begin == 37);
    r = jobspec::read_workflow("- name: a\n  dependencies: [afterok:f0]\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().begin()->location.range.begin == 36);
}

namespace {

/// Each candidate as "type[label]>(children)...", candidates separated by " | ".
std::string candidates(std::string_view shape, std::size_t most = 1000) {
    auto resources = jobspec::compile_shape(shape);
    REQUIRE(resources.ok());
    // Shapes have no xor_slot: a slot labelled xN stands for one.
    jobspec::ResourceList list = resources.value();
    std::function<void(jobspec::ResourceList&)> retype = [&](jobspec::ResourceList& l) {
        for (auto& v : l) {
            if (v.label() && v.label()->starts_with("x"))
                v.type = "xor_slot";
            retype(v.with);
        }
    };
    retype(list);
    const auto out = jobspec::match::xor_candidates(list, most);
    if (!out)
        return "too many";
    std::function<std::string(const jobspec::ResourceList&)> text =
        [&](const jobspec::ResourceList& l) {
            std::string t;
            for (const auto& v : l) {
                t += (t.empty() ? "" : ",") + v.type + (v.label() ? "[" + std::string(*v.label()) + "]" : "");
                if (!v.with.empty())
                    t += ">(" + text(v.with) + ")";
            }
            return t;
        };
    std::string all;
    for (const auto& c : *out)
        all += (all.empty() ? "" : " | ") + text(c);
    return all;
}

} // namespace

TEST_CASE("semantics - Fluxion's xor_slots stand for candidates in its order") {
    CHECK(candidates("slot{a}/core") == "slot[a]>(core)");
    // Siblings: exactly one xor_slot, after the other siblings.
    CHECK(candidates("node/[slot{x1}/core;slot{x2}/gpu;memory]") ==
          "node>(memory,slot[x1]>(core)) | node>(memory,slot[x2]>(gpu))");
    // xor_slots in two subtrees combine, the earlier subtree varying slowest (flux-sched's
    // flexible_split_test, its case 015: a1:s1, a1:s2, a2:s1, a2:s2).
    CHECK(candidates("[socket/[slot{xa1}/core;slot{xa2}/gpu];node/[slot{xs1}/core;slot{xs2}/gpu]]") ==
          "socket>(slot[xa1]>(core)),node>(slot[xs1]>(core)) | "
          "socket>(slot[xa1]>(core)),node>(slot[xs2]>(gpu)) | "
          "socket>(slot[xa2]>(gpu)),node>(slot[xs1]>(core)) | "
          "socket>(slot[xa2]>(gpu)),node>(slot[xs2]>(gpu))");
    // Nested: an inner xor_slot's choices under each outer one.
    CHECK(candidates("[slot{x1}/[slot{xi}/core;slot{xj}/gpu];slot{x2}/core]") ==
          "slot[x1]>(slot[xi]>(core)) | slot[x1]>(slot[xj]>(gpu)) | slot[x2]>(core)");
    CHECK(candidates("[socket/[slot{xa1}/core;slot{xa2}/gpu];node/[slot{xs1}/core;slot{xs2}/gpu]]", 3) ==
          "too many");
}
