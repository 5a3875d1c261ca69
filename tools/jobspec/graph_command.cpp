#include "graph_command.hpp"

#include <memory>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/workflow.hpp>

#include "graphviz.hpp"

namespace jobspec::cli {

namespace {

struct GraphArgs {
    CommonOptions common;
    std::string what;
    std::string input;
    std::string format;
    std::string svg;
    Dialect dialect = Dialect::rfc;
};

/// Prints the DOT text, or draws it into --svg FILE.
int draw(const GraphArgs& args, const std::string& dot, Reporter& out) {
    if (!args.svg.empty())
        return write_svg(dot, args.svg, out);
    return write_output(dot, out);
}

int run_dag(const GraphArgs& args, Reporter& out) {
    int status = exit_ok;
    const auto text = out.read(args.input, args.common.limits, status);
    if (!text)
        return status;
    ReadOptions options;
    options.limits = args.common.limits;
    auto result = read_workflow(*text, options);
    if (status = out.outcome(result, *text, args.input); status != exit_ok)
        return status;
    if (args.format == "dot" || !args.svg.empty())
        return draw(args, to_dot(result.value()), out);
    return write_output(to_json_text(to_json_value(result.value()), args.common.pretty), out);
}

int run_shape(const GraphArgs& args, Reporter& out) {
    int status = exit_ok;
    const auto text = out.argument(args.input, args.common.limits, status);
    if (!text)
        return status;
    ShapeOptions options;
    options.limits = args.common.limits;
    auto result = compile_shape(*text, options);
    if (status = out.outcome(result, *text); status != exit_ok)
        return status;
    return draw(args, to_dot(result.value()), out);
}

int run_jobspec(const GraphArgs& args, Reporter& out) {
    int status = exit_ok;
    const auto text = out.read(args.input, args.common.limits, status);
    if (!text)
        return status;
    ReadOptions options;
    options.limits = args.common.limits;
    options.dialect = args.dialect;
    auto result = read_jobspec(*text, options);
    if (status = out.outcome(result, *text, args.input); status != exit_ok)
        return status;
    return draw(args, to_dot(result.value()), out);
}

int run_graph(const GraphArgs& args, Reporter& out) {
    if (args.what != "dag" && args.format == "json")
        return out.usage(Code::usage_conflict,
                         "--what " + args.what +
                             " draws DOT only (jobspec shape and validate print the JSON)");
    if (args.what == "shape")
        return run_shape(args, out);
    if (args.what == "jobspec")
        return run_jobspec(args, out);
    return run_dag(args, out);
}

} // namespace

Command add_graph_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<GraphArgs>();
    CLI::App* app = parent.add_subcommand("graph", "Show what a request means as a graph");
    app->add_option("--what", args->what,
                    "What to draw: shape (an RFC 46 shape's resources), jobspec (a jobspec "
                    "file's resources and tasks) or dag (a workflow of jobs)")
        ->check(CLI::IsMember({"shape", "jobspec", "dag"}))
        ->required();
    app->add_option("INPUT", args->input,
                    "The shape, or the jobspec or workflow file (YAML or JSON); - reads "
                    "standard input")
        ->required();
    app->add_option("--format", args->format,
                    "dot (Graphviz), or json for a dag (its edges and an order; the default "
                    "for dag)")
        ->check(CLI::IsMember({"json", "dot"}));
    app->add_option("--svg", args->svg, "Draw the picture into this SVG file (needs graphviz)");
    add_dialect_option(*app, args->dialect);
    add_common_options(*app, args->common, reporter);
    add_vertex_limit_option(*app, args->common.limits);
    add_constraint_limit_option(*app, args->common.limits);
    app->footer(R"(Resources are drawn as boxes labelled "type ×count" (ranges as 2+ or 3-30),
each slot as a frame around what it holds, exclusive ones in bold, tasks hanging
from their slot.

A workflow is a list of jobs in submission order:
  - name: A
    id: ƒ2oLkTLb                      # optional; after* and fluid dependencies use it
    user: alice                       # optional; user-scoped dependencies match one user
    dependencies: ["string:A?type=out&scope=user", {scheme: afterok, value: "1234"}]
string/fluid dependencies are resolved as RFC 26 says (in and inout wait for the earlier
out and inout of the same value in scope); after* dependencies wait for the job with
that id.

Examples:
  jobspec graph --what shape 'node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/core=6]'
  jobspec graph --what jobspec --svg job.svg job.yaml
  jobspec graph --what dag workflow.yaml
  jobspec graph --what dag --format dot workflow.yaml | dot -Tsvg > workflow.svg

Exit status: 0 success, 1 invalid input or a dependency cycle, 2 usage error (or no
graphviz for --svg).)");
    return Command{app, [args, &reporter] { return run_graph(*args, reporter); }};
}

} // namespace jobspec::cli
