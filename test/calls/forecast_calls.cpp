// The forecast's readers, counted (issue 58: "each jobspec is read once per forecast"):
// the jobspec readers and writers are wrapped at link time (-Wl,--wrap), and an
// instance of pending jobs is forecast through both doors:
//   - read_instance_state (C++ and Python): the state's text read once, each jobspec
//     lowered once while it is read; forecasting it twice reads nothing more;
//   - the C instance (the jobtap plugin's): each jobspec read once when its job is added;
//     two forecasts read nothing more.
// No forecast writes a jobspec back to JSON (nothing it would read again).
// Usage: forecast-calls
#include <cstdio>
#include <map>
#include <string>
#include <string_view>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/forecast.hpp>
#include <jobspec/jobspec.h>

#include "syntax/document_tree.hpp"

#include "call_wrap.hpp"

namespace {

std::map<std::string, int> calls;

} // namespace

void record_call(const char* name) {
    ++calls[name];
}

using namespace jobspec;
using std::string_view;

JOBSPEC_WRAP("_ZN7jobspec6syntax9read_jsonESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "6LimitsERNS_11DiagnosticsERKNS0_11JsonDialectEPm",
             read_json, std::optional<syntax::DocNode>,
             (string_view t, const Limits& l, Diagnostics& d, const syntax::JsonDialect& j,
              unsigned long* n),
             (t, l, d, j, n))
JOBSPEC_WRAP("_ZN7jobspec5lower13lower_jobspecERKNS_6syntax7DocNodeENS_7DialectERNS_"
             "11DiagnosticsE",
             lower_jobspec, Jobspec, (const syntax::DocNode& n, Dialect x, Diagnostics& d),
             (n, x, d))
JOBSPEC_WRAP("_ZN7jobspec12read_jobspecESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "11ReadOptionsE",
             read_jobspec, Result<Jobspec>, (string_view t, const ReadOptions& o), (t, o))
JOBSPEC_WRAP("_ZN7jobspec13to_json_valueERKNS_7JobspecENS_10CountStyleE", jobspec_json,
             boost::json::value, (const Jobspec& j, CountStyle s), (j, s))

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
        ++failures;
    }
}

std::string count(const char* name) {
    return std::string(name) + " " + std::to_string(calls[name]);
}

constexpr int jobs = 24;
const char* const r_text =
    R"({"version": 1, "execution": {"R_lite": [{"rank": "0-3", "children": {"core": "0-3"}}], "nodelist": ["n[0-3]"]}})";

/// Job i: most fit (one to four nodes, 10 to 33 s), every sixth asks ten nodes (never:
/// the matcher explains it), every fifth is held, every seventh waits for job 1.
std::string jobspec_of(int i) {
    const int nodes = i % 6 == 5 ? 10 : 1 + i % 4;
    return R"({"version": 1, "resources": [{"type": "node", "count": )" + std::to_string(nodes) +
           R"(, "with": [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": )" +
           std::to_string(1 + i % 3) +
           R"(}]}]}], "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
           "attributes": {"system": {"duration": )" +
           std::to_string(10 + i) + "}}}";
}

std::string state_of(int i) {
    return i % 7 == 6 ? "depend" : "sched";
}

std::string state_text() {
    std::string pending;
    for (int i = 0; i < jobs; ++i) {
        if (i > 0)
            pending += ",";
        pending += R"({"id": )" + std::to_string(100 + i) + R"(, "state": ")" + state_of(i) +
                   R"(", "priority": 16, "urgency": )" + (i % 5 == 4 ? "0" : "16") +
                   R"(, "t_submit": )" + std::to_string(i) +
                   (i % 7 == 6 ? R"(, "dependencies": ["after-finish=ƒ2"])" : "") +
                   R"(, "jobspec": )" + jobspec_of(i) + "}";
    }
    return std::string(R"({"now": 0, "R": )") + r_text +
           R"(, "scheduler": {"name": "sched-backfill"}, "running": [{"id": 1, "expiration": 50,
           "R": {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-3"}}], "nodelist": ["n0"]}}}],
           "pending": [)" +
           pending + "]}";
}

void through_the_state_door() {
    const std::string text = state_text();
    calls.clear();
    auto state = read_instance_state(text);
    expect(state.ok(), "the state reads");
    if (!state.ok())
        return;
    expect(calls["read_json"] == 1, "the state's text read once: " + count("read_json"));
    expect(calls["lower_jobspec"] == jobs,
           "each jobspec lowered once while the state is read: " + count("lower_jobspec"));
    calls.clear();
    const Forecast first = forecast(state.value());
    const Forecast second = forecast(state.value());
    expect(first.jobs.size() == jobs && second.jobs.size() == jobs, "every job forecast");
    int never = 0;
    for (const auto& j : first.jobs)
        never += j.verdict == Verdict::never;
    expect(never == jobs / 6, "the jobs asking ten nodes are never (explained)");
    for (const char* name : {"read_json", "lower_jobspec", "read_jobspec", "jobspec_json"})
        expect(calls[name] == 0, std::string("two forecasts: ") + count(name));
}

void through_the_c_door() {
    jobspec_error* error = nullptr;
    jobspec_instance* instance = jobspec_instance_new(nullptr);
    jobspec_rset* all = jobspec_rset_read(r_text, nullptr, &error);
    expect(instance != nullptr && all != nullptr, "an instance and its R");
    if (instance == nullptr || all == nullptr)
        return;
    expect(jobspec_instance_set_resources(instance, all, nullptr, &error), "resources set");
    expect(jobspec_instance_set_scheduler(instance, "sched-backfill", nullptr, nullptr, &error),
           "scheduler set");
    calls.clear();
    for (int i = 0; i < jobs; ++i)
        expect(jobspec_instance_add_pending(instance, 100 + i, jobspec_of(i).c_str(),
                                            state_of(i).c_str(), 16, i % 5 == 4 ? 0 : 16, i,
                                            nullptr, &error),
               "job " + std::to_string(i) + " added");
    expect(calls["read_jobspec"] == jobs,
           "each jobspec read once when added: " + count("read_jobspec"));
    expect(calls["lower_jobspec"] == jobs, "and lowered once: " + count("lower_jobspec"));
    calls.clear();
    for (int round = 0; round < 2; ++round) {
        jobspec_forecast* f = jobspec_forecast_start(instance, 0);
        expect(f != nullptr, "a forecast starts");
        while (f != nullptr && !jobspec_forecast_advance(f, 1000)) {
        }
        expect(f != nullptr && jobspec_forecast_count(f) == jobs, "every job forecast (C)");
        jobspec_forecast_free(f);
    }
    for (const char* name : {"read_json", "lower_jobspec", "read_jobspec", "jobspec_json"})
        expect(calls[name] == 0, std::string("two forecasts (C): ") + count(name));
    jobspec_rset_free(all);
    jobspec_instance_free(instance);
    jobspec_error_free(error);
}

} // namespace

int main() {
    through_the_state_door();
    through_the_c_door();
    std::printf("%s\n", failures == 0 ? "each jobspec read once per forecast" : "failed");
    return failures == 0 ? 0 : 1;
}
