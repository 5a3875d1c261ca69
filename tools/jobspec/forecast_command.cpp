#include "forecast_command.hpp"

#include <memory>

#include <jobspec/emit.hpp>
#include <jobspec/forecast.hpp>
#include <jobspec/forecast_text.hpp>

#include "file_output.hpp"
#include "r_file.hpp"

namespace jobspec::cli {

namespace {

struct ForecastArgs {
    CommonOptions common;
    std::vector<std::string> files;
    bool json = false;
    bool utc = false;
    std::string svg;
    std::uint64_t max_steps = 0;
    Dialect dialect = Dialect::rfc;
};

int run_forecast(const ForecastArgs& a, Reporter& out) {
    int status = exit_ok;
    std::optional<ResourceSet> r;
    const std::string& path = a.files.back();
    if (a.files.size() == 2 && !(r = read_r_file(a.files.front(), a.common, out, status)))
        return status;
    const auto text = out.read(path, a.common.limits, status);
    if (!text)
        return status;
    ReadOptions read;
    read.dialect = a.dialect;
    read.limits = a.common.limits;
    auto state = read_instance_state(*text, read, r ? &*r : nullptr);
    if (status = out.outcome(state, *text, path); status != exit_ok)
        return status;
    ForecastOptions options;
    if (a.max_steps > 0)
        options.max_steps = a.max_steps;
    const Forecast f = forecast(state.value(), options);
    ForecastTextOptions text_options;
    text_options.utc = a.utc;
    if (!a.svg.empty())
        if (const auto problem =
                write_new_file(a.svg, forecast_svg(f, state.value(), text_options)))
            return out.usage(Code::io_unwritable, "cannot write " + a.svg + ": " + *problem);
    if (a.json)
        return write_output(
            to_json_text(forecast_to_json(f, state.value(), text_options), a.common.pretty),
            out);
    return write_output(forecast_lines(f, state.value(), text_options), out);
}

} // namespace

Command add_forecast_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<ForecastArgs>();
    CLI::App* app = parent.add_subcommand(
        "forecast", "When will each pending job of an instance start? Its scheduler, run forward");
    app->add_option("[R] STATE", a->files,
                    "The instance's state (JSON: docs/FORMATS.md); with two files, R first "
                    "and then the state without its R")
        ->required()
        ->expected(1, 2);
    app->add_flag("--json", a->json, "Print the forecast as JSON");
    app->add_option("--svg", a->svg, "Draw the schedule (nodes by time) into this SVG file");
    app->add_flag("--utc", a->utc, "Times in UTC rather than the local time zone");
    app->add_option("--max-steps", a->max_steps,
                    "The most steps jobspec's matcher may take to explain one job that does not "
                    "start (match.budget: it is then unknown). Default: no limit")
        ->check(CLI::PositiveNumber);
    add_dialect_option(*app, a->dialect);
    add_common_options(*app, a->common, reporter);
    app->footer(R"(Runs the instance's scheduler forward in time by its own order and rules
(docs/SCHEDULERS.md): sched-simple and sched-fifo (strict priority FIFO), sched-backfill
(EASY), Fluxion's fcfs, easy, hybrid and conservative, every job running to its time
limit. Prints one line per pending job: when it starts and on which nodes, after which
jobs, or why it has no estimate (it waits behind a job that waits for a drained node, a
job ahead has no time limit, it can never run). Another scheduler gets jobspec's verdicts
and no order. `flux jobspec why` gives the same forecast of a running instance.

The state: {"now", "R", "drained", "scheduler": {"name", "args"}, "queues", "config",
"running": [{"id", "R", "expiration"}], "pending": [{"id", "state", "priority",
"urgency", "t_submit", "queue", "jobspec"}]} (docs/FORMATS.md).

Examples:
  jobspec forecast instance.json
  jobspec forecast --json --svg schedule.svg r.json jobs.json

Exit status: 0 the forecast is printed, 1 the state is invalid, 2 usage error.)");
    return Command{app, [a, &reporter] { return run_forecast(*a, reporter); }};
}

} // namespace jobspec::cli
