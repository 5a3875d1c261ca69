// flux submission values that have no command-line case of their own.
#include <jobspec/submit.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

TEST_CASE("submit - durations in Flux Standard Duration") {
    using jobspec::parse_flux_duration;
    CHECK(parse_flux_duration("30") == 30.0);
    CHECK(parse_flux_duration("0") == 0.0);
    CHECK(parse_flux_duration("10ms") == 0.01);
    CHECK(parse_flux_duration(".5m") == 30.0);
    CHECK(parse_flux_duration("1.5h") == 5400.0);
    CHECK(parse_flux_duration("2d") == 172800.0);
    const double infinity = std::numeric_limits<double>::infinity();
    CHECK(parse_flux_duration("inf") == infinity);
    CHECK(parse_flux_duration("infinity") == infinity);
    CHECK(parse_flux_duration("1e999") == infinity);
    CHECK_FALSE(parse_flux_duration(""));
    CHECK_FALSE(parse_flux_duration("-1"));
    CHECK_FALSE(parse_flux_duration("h"));
    CHECK_FALSE(parse_flux_duration("5x"));
    CHECK_FALSE(parse_flux_duration("nan"));
}

TEST_CASE("submit - the four commands by name") {
    CHECK(jobspec::submit_command_named("run") == jobspec::SubmitCommand::run);
    CHECK(jobspec::submit_command_named("submit") == jobspec::SubmitCommand::submit);
    CHECK(jobspec::submit_command_named("batch") == jobspec::SubmitCommand::batch);
    CHECK(jobspec::submit_command_named("alloc") == jobspec::SubmitCommand::alloc);
    CHECK_FALSE(jobspec::submit_command_named("srun"));
    CHECK_FALSE(jobspec::submit_command_named("Run"));
}

namespace {

/// Whether each byte of each argument was read from a script byte that holds it, the
/// bytes in order; `placed` says which arguments must have origins at all.
void check_origins(std::string_view script, const jobspec::Directive& d,
                   const std::vector<bool>& placed) {
    REQUIRE(d.origins.size() == d.arguments.size());
    REQUIRE(placed.size() == d.arguments.size());
    for (std::size_t i = 0; i < d.arguments.size(); ++i) {
        const std::string& word = d.arguments[i];
        const auto& at = d.origins[i];
        CAPTURE(word);
        CHECK(at.empty() != placed[i]);
        if (at.empty())
            continue;
        REQUIRE(at.size() == word.size());
        for (std::size_t k = 0; k < word.size(); ++k) {
            REQUIRE(at[k] < script.size());
            CHECK(script[at[k]] == word[k]);
            if (k > 0)
                CHECK(at[k] > at[k - 1]);
        }
    }
}

} // namespace

TEST_CASE("submit - where each byte of a directive's arguments was read") {
    const std::string script = "#!/bin/sh\n"
                               "#flux: -N1 --requires=\"a b\"\\ c'd e' x\\\"y\n"
                               "#flux: --setattr=user.t=\"\"\"\n"
                               "#flux:   one\\\\two\n"
                               "#flux:   three\"\"\"\n"
                               "#flux: --job-name=\"\"\"\n"
                               "#flux: '''q''' \"\"\"\n"
                               "hostname\n";
    const auto directives = jobspec::parse_directives(script);
    REQUIRE(directives.ok());
    const auto& ds = directives.value();
    REQUIRE(ds.size() == 3);
    CHECK(ds[0].arguments == std::vector<std::string>{"-N1", "--requires=a b cd e", "x\"y"});
    check_origins(script, ds[0], {true, true, true});
    // A multi-line value: its line ends are the script's, its indent dropped.
    REQUIRE(ds[1].arguments.size() == 1);
    CHECK(ds[1].arguments[0].starts_with("--setattr=user.t="));
    CHECK(ds[1].arguments[0].find("one\\two\n") != std::string::npos);
    check_origins(script, ds[1], {true});
    // A line flux quotes again (paired triple quotes on it) has no place in the script.
    REQUIRE(ds[2].arguments.size() == 1);
    check_origins(script, ds[2], {false});
}

TEST_CASE("submit - a problem in a directive's value is placed in the script") {
    const std::string script = "#!/bin/sh\n"
                               "#flux: -N1 --job-name=hostt:foo1\n"
                               "#flux: --requires=hostt:foo1\\ and\\ ssd\n"
                               "hostname\n";
    jobspec::SubmitOptions start;
    start.command = jobspec::SubmitCommand::batch;
    start.environment_none = true;
    const auto context = jobspec::current_submit_context();
    const auto options =
        jobspec::read_submission(std::vector<std::string>{"job.sh"}, start, context, script);
    REQUIRE(options.ok());
    CHECK(options.value().script_name == "job.sh");
    const auto compiled = jobspec::compile_submission(options.value(), context);
    REQUIRE_FALSE(compiled.ok());
    const auto& d = *compiled.diagnostics().begin();
    CHECK(d.code == jobspec::Code::query_unknown_operator);
    REQUIRE(d.location.source != nullptr);
    CHECK(d.location.source->name == "job.sh");
    CHECK(d.location.source->file);
    const std::size_t hostt = script.find("hostt:foo1\\");
    CHECK(d.location.range == jobspec::SourceRange{static_cast<std::uint32_t>(hostt),
                                                   static_cast<std::uint32_t>(hostt + 5)});
    REQUIRE(d.fixes.size() == 1);
    CHECK(d.fixes[0].range == d.location.range);
    CHECK(d.fixes[0].replacement == "host");
}

TEST_CASE("submit - a directive's bad option value is placed at the value") {
    const std::string script =
        "#!/bin/sh\n#flux: -N 2\n#flux: -n 'x y'\n#flux: --nodes\nhostname\n";
    jobspec::SubmitOptions start;
    start.command = jobspec::SubmitCommand::batch;
    const auto context = jobspec::current_submit_context();
    const auto read =
        jobspec::read_submission(std::vector<std::string>{"job.sh"}, start, context, script);
    REQUIRE_FALSE(read.ok());
    const auto& d = *read.diagnostics().begin();
    CHECK(d.code == jobspec::Code::directive_option);
    const std::size_t value = script.find("x y");
    CHECK(d.location.range == jobspec::SourceRange{static_cast<std::uint32_t>(value),
                                                   static_cast<std::uint32_t>(value + 3)});
    // A value missing: at the option.
    const std::string missing = "#!/bin/sh\n#flux: -N 2 --nodes\nhostname\n";
    const auto read2 =
        jobspec::read_submission(std::vector<std::string>{"job.sh"}, start, context, missing);
    REQUIRE_FALSE(read2.ok());
    const std::size_t option = missing.find("--nodes");
    CHECK(read2.diagnostics().begin()->location.range ==
          jobspec::SourceRange{static_cast<std::uint32_t>(option),
                               static_cast<std::uint32_t>(option + 7)});
}

TEST_CASE("submit - a problem in a query joined with the command line's stays in the query") {
    const std::string script = "#!/bin/sh\n#flux: -N1 --requires=ssd\nhostname\n";
    jobspec::SubmitOptions start;
    start.command = jobspec::SubmitCommand::batch;
    start.environment_none = true;
    const auto context = jobspec::current_submit_context();
    const auto options = jobspec::read_submission(
        std::vector<std::string>{"--requires=hostt:y", "job.sh"}, start, context, script);
    REQUIRE(options.ok());
    const auto compiled = jobspec::compile_submission(options.value(), context);
    REQUIRE_FALSE(compiled.ok());
    const auto& d = *compiled.diagnostics().begin();
    REQUIRE(d.location.source != nullptr);
    CHECK(d.location.source->name == "--requires");
    CHECK(d.location.source->text == "ssd hostt:y");
    CHECK(d.location.range == jobspec::SourceRange{4, 9});
}
