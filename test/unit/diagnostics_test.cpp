#include <memory>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <doctest/doctest.h>

#include <jobspec/diagnostic.hpp>
#include <jobspec/render.hpp>
#include <jobspec/result.hpp>
#include <jobspec/text.hpp>

using jobspec::Code;
using jobspec::Diagnostics;
using jobspec::Severity;
using jobspec::SourceRange;

TEST_CASE("diagnostics - code names round-trip and are unique") {
    for (std::size_t i = 0; i < jobspec::code_count; ++i) {
        const auto code = static_cast<Code>(i);
        const auto name = jobspec::code_name(code);
        CHECK(name.find('.') != std::string_view::npos);
        CHECK(jobspec::code_from_name(name) == code);
    }
    CHECK_FALSE(jobspec::code_from_name("no.such-code"));
    CHECK(jobspec::default_severity(Code::jobspec_unknown_vertex_key) == Severity::warning);
}

TEST_CASE("diagnostics - sorting, promotion and the cap") {
    Diagnostics d(3);
    d.add(Code::shape_syntax, "b", {SourceRange{5, 6}, {}});
    d.add(Code::jobspec_unknown_vertex_key, "w", {{}, "/0/x"});
    d.add(Code::shape_syntax, "a", {SourceRange{1, 2}, {}});
    CHECK(d.error_count() == 2);
    d.sort_by_position();
    CHECK(d[0].message == "a");
    CHECK(d[1].message == "b");
    CHECK(d[2].message == "w");
    d.promote_warnings();
    CHECK(d.error_count() == 3);
    d.add(Code::shape_syntax, "over");
    d.add(Code::shape_syntax, "dropped");
    CHECK(d.size() == 4);
    CHECK(d[3].code == Code::limit_diagnostics);
}

TEST_CASE("diagnostics - result holds a value or diagnostics") {
    jobspec::Result<int> good(7);
    CHECK(good.ok());
    CHECK(good.value() == 7);
    CHECK(*good.get() == 7);
    Diagnostics d;
    d.add(Code::shape_syntax, "bad");
    jobspec::Result<int> bad(d);
    CHECK_FALSE(bad.ok());
    CHECK(bad.get() == nullptr);
    CHECK(bad.diagnostics().has_errors());
}

TEST_CASE("diagnostics - one line for a host: errors, pointers, the count of the rest") {
    using jobspec::render_line;
    CHECK(render_line(Diagnostics{}).empty());
    Diagnostics d;
    d.add(Code::jobspec_unknown_system_attribute, "unknown 'x'", {{}, "/attributes/system/x"});
    CHECK(render_line(d) == "jobspec.unknown-system-attribute at /attributes/system/x: "
                            "unknown 'x'"); // warnings only: shown
    d.add(Code::jobspec_count_not_positive, "too\nsmall\x1b", {{}, "/resources/0/count"});
    CHECK(render_line(d) == "jobspec.count-not-positive at /resources/0/count: "
                            "too\\x0asmall\\x1b"); // errors hide warnings; one line, visible
    d.add(Code::jobspec_json_syntax, "unclosed");
    d.add(Code::jobspec_missing_key, "no 'tasks'");
    d.add(Code::jobspec_missing_key, "no 'version'");
    CHECK(render_line(d) ==
          "jobspec.count-not-positive at /resources/0/count: too\\x0asmall\\x1b; "
          "jobspec.json-syntax: unclosed; jobspec.missing-key: no 'tasks'; and 1 more");
    // With a budget, the errors that fit whole and the count of the others.
    CHECK(render_line(d, 80) ==
          "jobspec.count-not-positive at /resources/0/count: too\\x0asmall\\x1b; and 3 more");
    const std::string line = render_line(d, 30);
    CHECK(line == "jobspec.count-n...; and 3 more");
    CHECK(line.size() <= 30);
}

TEST_CASE("diagnostics - a line of exactly the budget is shown whole, one byte more is cut") {
    Diagnostics d;
    // "jobspec.json-syntax: " (21 bytes) and a message to make flux_verdict_bytes in all.
    d.add(Code::jobspec_json_syntax, std::string(jobspec::flux_verdict_bytes - 21, 'x'));
    const std::string whole = jobspec::render_line(d);
    REQUIRE(whole.size() == jobspec::flux_verdict_bytes);
    CHECK(jobspec::render_line(d, jobspec::flux_verdict_bytes) == whole);
    const std::string cut = jobspec::render_line(d, jobspec::flux_verdict_bytes - 1);
    CHECK(cut.size() == jobspec::flux_verdict_bytes - 1);
    CHECK(cut.ends_with("x..."));
}

TEST_CASE("diagnostics - one line cut short keeps whole UTF-8 characters") {
    Diagnostics d;
    d.add(Code::jobspec_json_syntax, "ééééé");
    // "jobspec.json-syntax: " is 21 bytes; 25 leaves room for 4 - 3 ("...") = 1 byte of é.
    const std::string line = jobspec::render_line(d, 25);
    CHECK(line == "jobspec.json-syntax: ...");
    CHECK(jobspec::find_invalid_utf8(line) == std::string_view::npos);
}

TEST_CASE("diagnostics - a diagnostic's own source: an option's value, a script's line") {
    Diagnostics d;
    const auto option = std::make_shared<const jobspec::SourceText>(
        jobspec::SourceText{"--resources-shape", "slot=0/core", false});
    d.add(Code::shape_count_not_positive, "count must be at least 1",
          jobspec::Location(SourceRange{5, 6}, {}, option));
    const auto script = std::make_shared<const jobspec::SourceText>(
        jobspec::SourceText{"job.sh", "#!/bin/sh\n#flux: --bogus\n", true});
    d.add(Code::directive_option, "unrecognized arguments: --bogus",
          jobspec::Location(SourceRange{17, 24}, {}, script));
    // The input the caller gives is not what these point into.
    CHECK(jobspec::render_text(d, "unrelated input") ==
          "error[shape.count-not-positive]: count must be at least 1\n"
          "  --> --resources-shape\n"
          "  slot=0/core\n"
          "       ^\n"
          "error[directive.option]: unrecognized arguments: --bogus\n"
          "  --> job.sh:2:8\n"
          "  #flux: --bogus\n"
          "         ^~~~~~~\n");
    const auto json = jobspec::diagnostics_to_json(d, "unrelated input", "other.yaml");
    CHECK(json[0].as_object().at("source") == "--resources-shape");
    CHECK(json[0].as_object().at("column") == 6);
    CHECK_FALSE(json[0].as_object().contains("file"));
    CHECK(json[1].as_object().at("file") == "job.sh");
    CHECK(json[1].as_object().at("line") == 2);
}
