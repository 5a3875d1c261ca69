#include "shape_command.hpp"

#include <memory>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/write_back.hpp>

namespace jobspec::cli {

namespace {

struct ShapeArgs {
    CommonOptions common;
    std::string shape;
    std::string format = "json";
    std::string counts = "dict";
    std::string default_label = "default";
    std::string from;
    bool format_given = false;
};

/// The shape of a jobspec's resources: one line, or with --format json the shape and
/// where each vertex's text is.
int run_shape_from(ShapeArgs& args, Reporter& out) {
    int status = exit_ok;
    const auto text = out.read(args.from, args.common.limits, status);
    if (!text)
        return status;
    ReadOptions options;
    options.limits = args.common.limits;
    auto document = read_jobspec(*text, options);
    if (status = out.outcome(document, *text, args.from); status != exit_ok)
        return status;
    auto written = shape_of(document.value().resources, args.default_label, "/resources");
    if (status = out.outcome(written, *text, args.from); status != exit_ok)
        return status;
    if (!args.format_given)
        return write_output(written.value().text + "\n", out);
    if (args.format != "json")
        return out.usage(Code::usage_conflict, "--from prints a shape, or with --format json its "
                                               "spans; YAML is not one of them");
    boost::json::array spans;
    for (const auto& span : written.value().spans)
        spans.push_back(boost::json::object{
            {"pointer", span.pointer}, {"offset", span.offset}, {"length", span.length}});
    return write_output(
        to_json_text(boost::json::object{{"shape", written.value().text}, {"spans", spans}},
                     args.common.pretty),
        out);
}

int run_shape(ShapeArgs& args, Reporter& out) {
    if (args.from.empty() == args.shape.empty())
        return out.usage(args.from.empty() ? Code::usage_missing_argument : Code::usage_conflict,
                         "give a SHAPE or --from FILE, one of them",
                         "'jobspec shape --help' lists the options");
    if (!args.from.empty())
        return run_shape_from(args, out);
    int status = exit_ok;
    const auto text = out.argument(args.shape, args.common.limits, status);
    if (!text)
        return status;
    ShapeOptions options;
    options.default_label = args.default_label;
    options.limits = args.common.limits;
    auto result = compile_shape(*text, options);
    if (status = out.outcome(result, *text); status != exit_ok)
        return status;
    const CountStyle counts = args.counts == "string" ? CountStyle::string : CountStyle::dict;
    return write_output(args.format == "yaml"
                            ? to_yaml_text(to_json_value(result.value(), counts))
                            : to_json_text(result.value(), counts, args.common.pretty),
                        out);
}

} // namespace

Command add_shape_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<ShapeArgs>();
    CLI::App* app = parent.add_subcommand(
        "shape", "Compile an RFC 46 resource shape into an RFC 14 resource list");
    app->add_option("SHAPE", args->shape,
                    "The shape, e.g. 'slot=4{nodelevel}/node{-x}/socket=2+/core=4+'; - reads it "
                    "from standard input");
    app->add_option("--from", args->from,
                    "Print the shape of this jobspec's resources instead (YAML or JSON; - "
                    "reads standard input); with --format json, the shape and the span of "
                    "each vertex's text by its JSON pointer");
    app->add_option("--format", args->format, "Output format")
        ->check(CLI::IsMember({"json", "yaml"}))
        ->capture_default_str()
        ->each([args](const std::string&) { args->format_given = true; });
    app->add_option("--counts", args->counts,
                    "Range and idset counts as RFC 14 dictionaries (dict) or as RFC 45/22 "
                    "strings like flux-core's parser (string)")
        ->check(CLI::IsMember({"dict", "string"}))
        ->capture_default_str();
    app->add_option("--default-label", args->default_label,
                    "Label of a shape's only slot when it has none (flux-core uses 'task')")
        ->capture_default_str();
    add_common_options(*app, args->common, reporter);
    add_vertex_limit_option(*app, args->common.limits);
    app->footer(R"(Shape syntax (RFC 46):
  type=count{key:value,...}/child     one vertex; '/' introduces what it contains
  [a;b]                               several vertices at one level
  count   4 | 4,9,16 (idset) | 3-30, 2+, 1-5:2, 1-4:2:* (RFC 45 ranges) | [...]
  slot{label,...}                     a slot's first braces entry is its label
  x, +key, -key                       exclusive / key: true / key: false

With --from, the other way: the shape that compiles to a jobspec's resources (the label
of its only slot left out when it is --default-label), or shape.unwritable where none
does (an empty 'with', a slot with no string label).

Examples:
  jobspec shape 'slot=3-30/node'
  jobspec shape --format yaml 'node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/core=6]'
  flux run --dry-run -N2 -n4 hostname | jobspec shape --from - --default-label task

Exit status: 0 success, 1 invalid shape (diagnostics on stderr), 2 usage error.)");
    return Command{app, [args, &reporter] { return run_shape(*args, reporter); }};
}

} // namespace jobspec::cli
