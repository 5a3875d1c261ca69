// Reading whole jobspecs: the model, the canonical pass and the V1 pass.
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

const std::string v1_yaml = R"(version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 2
tasks:
  - command: [ "app" ]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
)";

std::vector<std::string> codes(std::string_view text, bool v1 = false) {
    jobspec::ReadOptions options;
    options.v1 = v1;
    std::vector<std::string> out;
    for (const auto& d : jobspec::read_jobspec(text, options).diagnostics())
        out.emplace_back(d.code_name());
    return out;
}

std::string replace(std::string text, std::string_view from, std::string_view to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("jobspec - the model holds what the document says") {
    auto r = jobspec::read_jobspec(v1_yaml);
    REQUIRE(r.ok());
    const auto& js = r.value();
    CHECK(js.version == 1);
    REQUIRE(js.resources.size() == 1);
    CHECK(js.resources[0].type == "node");
    CHECK(js.resources[0].count.fixed() == 2);
    CHECK(js.resources[0].with[0].label() == "default");
    REQUIRE(js.tasks.size() == 1);
    CHECK(js.tasks[0].command == std::vector<std::string>{"app"});
    CHECK(js.tasks[0].count.kind == jobspec::TaskCount::Kind::per_slot);
    CHECK(js.attributes.duration() == 3600.0);
    REQUIRE(js.attributes.system);
    const auto* duration = js.attributes.system->find("duration");
    REQUIRE(duration != nullptr);
    CHECK(std::get<jobspec::Number>(duration->value) == jobspec::Number(std::int64_t{3600}));
    CHECK(duration->value_range.begin == v1_yaml.find("3600"));
}

TEST_CASE("jobspec - setting a system attribute again replaces its value where it was") {
    jobspec::Attributes attributes;
    attributes.system_list().set("duration", jobspec::Number(std::int64_t{-1}));
    attributes.system_list().set("queue", std::string("debug"));
    attributes.system_list().set("duration", jobspec::Number(60.0));
    REQUIRE(attributes.system);
    CHECK(attributes.system->entries.size() == 2);
    CHECK(attributes.system->entries[0].key == "duration");
    CHECK(attributes.duration() == 60.0);
}

TEST_CASE("jobspec - YAML and JSON of the same jobspec read the same") {
    auto from_yaml = jobspec::read_jobspec(v1_yaml);
    REQUIRE(from_yaml.ok());
    const std::string json = jobspec::to_json_text(jobspec::to_json_value(from_yaml.value()));
    auto from_json = jobspec::read_jobspec(json);
    REQUIRE(from_json.ok());
    CHECK(jobspec::to_json_text(jobspec::to_json_value(from_json.value())) == json);
    jobspec::ReadOptions as_yaml;
    as_yaml.format = jobspec::DocumentFormat::yaml; // JSON is YAML too
    CHECK(jobspec::read_jobspec(json, as_yaml).ok());
}

TEST_CASE("jobspec - count forms in documents") {
    auto r = jobspec::read_jobspec(replace(v1_yaml, "count: 2\n    with", "count: 2-8\n    with"));
    REQUIRE(r.ok());
    CHECK(r.value().resources[0].count.range().max == 8u);
    auto dict = jobspec::read_jobspec(replace(
        v1_yaml, "count: 2\n    with", "count: {min: 2, operator: '*', operand: 2}\n    with"));
    REQUIRE(dict.ok());
    CHECK(dict.value().resources[0].count.range().op == jobspec::RangeOperator::multiply);
    CHECK(
        codes(replace(v1_yaml, "count: 2\n    with", "count: {min: 2, max: 4}\n    with")).empty());
}

TEST_CASE("jobspec - diagnostics carry pointers and YAML positions") {
    const std::string text = replace(v1_yaml, "    slot: default\n", "    slot: nosuch\n");
    auto r = jobspec::read_jobspec(text);
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.diagnostics().size() == 1);
    const auto& d = r.diagnostics()[0];
    CHECK(d.code == jobspec::Code::jobspec_unknown_slot);
    CHECK(d.location.pointer == "/tasks/0/slot");
    CHECK(text.substr(d.location.range.begin, d.location.range.size()) == "nosuch");
    CHECK(d.help.find("'default'") != std::string::npos);
}

TEST_CASE("jobspec - an error in a quoted count points inside the quotes") {
    const std::string text =
        replace(v1_yaml, "    count: 2\n    with:", "    count: \"3-1\"\n    with:");
    auto r = jobspec::read_jobspec(text);
    REQUIRE(r.diagnostics().size() == 1);
    const auto& range = r.diagnostics()[0].location.range;
    CHECK(text.substr(range.begin, range.size()) == "3-1");
}

TEST_CASE("jobspec - the V1 pass is separate and opt-in") {
    // Two tasks: canonical, not V1.
    const std::string text = replace(v1_yaml, "attributes:",
                                     "  - command: [b]\n    slot: default\n    count: {total: 2}\n"
                                     "attributes:");
    CHECK(codes(text).empty());
    CHECK(codes(text, true) == std::vector<std::string>{"v1.tasks"});
    CHECK(codes(v1_yaml, true).empty());
}

TEST_CASE("jobspec - V1 graph shapes") {
    const auto graph = [](std::string_view resources) {
        const std::string text = std::string("version: 1\nresources: ") + std::string(resources) +
                                 "\ntasks: [{command: [a], slot: s, count: {per_slot: 1}}]\n"
                                 "attributes: {system: {duration: 0}}\n";
        return codes(text, true);
    };
    const std::string slot = "{type: slot, count: 1, label: s, with: ";
    CHECK(graph("[" + slot + "[{type: core, count: 1}]}]").empty());
    CHECK(graph("[" + slot + "[{type: core, count: 1}, {type: gpu, count: 1}]}]").empty());
    CHECK(graph("[{type: node, count: 1, with: [" + slot + "[{type: core, count: 1}]}]}]").empty());
    CHECK(graph("[" + slot + "[{type: gpu, count: 1}, {type: core, count: 1}]}]") ==
          std::vector<std::string>{"v1.graph-shape"});
    CHECK(graph("[" + slot + "[{type: core, count: 1}, {type: core, count: 1}]}]") ==
          std::vector<std::string>{"v1.graph-shape"});
    auto r = jobspec::read_jobspec("version: 1\nresources: [{type: node, count: 1, with: "
                                   "[{type: core, count: 1}]}]\ntasks: [{command: [a], slot: s, "
                                   "count: {per_slot: 1}}]\nattributes: {system: {duration: 0}}\n",
                                   {jobspec::DocumentFormat::automatic, true, {}});
    bool named = false;
    for (const auto& d : r.diagnostics())
        named = named || d.message.find("node>core is not one of slot>core") == 0;
    CHECK(named);
}

TEST_CASE("jobspec - check_jobspec runs the passes on a model built in code") {
    auto r = jobspec::read_jobspec(v1_yaml);
    REQUIRE(r.ok());
    jobspec::Jobspec js = r.value();
    CHECK_FALSE(jobspec::check_jobspec(js, true).has_errors());
    js.tasks[0].slot = "other";
    const auto d = jobspec::check_jobspec(js);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == jobspec::Code::jobspec_unknown_slot);
    CHECK(d[0].location.pointer == "/tasks/0/slot");
}
