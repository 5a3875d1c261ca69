// flux submission values that have no command-line case of their own.
#include <jobspec/submit.hpp>

#include <limits>

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
