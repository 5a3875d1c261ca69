#include "graph_command.hpp"

#include <memory>

#include <jobspec/emit.hpp>
#include <jobspec/workflow.hpp>

namespace jobspec::cli {

namespace {

struct GraphArgs {
    CommonOptions common;
    std::string what;
    std::string input;
    std::string format = "json";
};

int run_dag(const GraphArgs& args) {
    const auto text = read_file(args.input);
    if (!text)
        return exit_usage;
    ReadOptions options;
    options.limits = args.common.limits;
    auto result = read_workflow(*text, options);
    const int status = report(result.diagnostics(), *text, args.common,
                              args.input == "-" ? "<stdin>" : args.input);
    if (status != exit_ok)
        return status;
    if (args.format == "dot")
        return write_output(to_dot(result.value()));
    return write_output(to_json_text(to_json_value(result.value()), args.common.pretty));
}

} // namespace

Command add_graph_command(CLI::App& parent) {
    auto args = std::make_shared<GraphArgs>();
    CLI::App* app = parent.add_subcommand("graph", "Show what a request means as a graph");
    app->add_option("--what", args->what, "What to draw: dag (a workflow of jobs)")
        ->check(CLI::IsMember({"dag"}))
        ->required();
    app->add_option("INPUT", args->input,
                    "The workflow file (YAML or JSON); - reads standard input")
        ->required();
    app->add_option("--format", args->format, "json (edges and an order) or dot (Graphviz)")
        ->check(CLI::IsMember({"json", "dot"}))
        ->capture_default_str();
    add_common_options(*app, args->common);
    app->footer(R"(A workflow is a list of jobs in submission order:
  - name: A
    id: ƒ2oLkTLb                      # optional; after* and fluid dependencies use it
    user: alice                       # optional; user-scoped dependencies match one user
    dependencies: ["string:A?type=out&scope=user", {scheme: afterok, value: "1234"}]
string/fluid dependencies are resolved as RFC 26 says (in and inout wait for the earlier
out and inout of the same value in scope); after* dependencies wait for the job with
that id.

Examples:
  jobspec graph --what dag workflow.yaml
  jobspec graph --what dag --format dot workflow.yaml | dot -Tsvg > workflow.svg

Exit status: 0 success, 1 invalid workflow or a dependency cycle, 2 usage error.)");
    return Command{app, [args] { return run_dag(*args); }};
}

} // namespace jobspec::cli
