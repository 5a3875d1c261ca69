#include <jobspec/diagnostic.hpp>
#include <jobspec/result.hpp>

#include <doctest/doctest.h>

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
