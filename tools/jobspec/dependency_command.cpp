#include "dependency_command.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <boost/json/array.hpp>

#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>

namespace jobspec::cli {

namespace {

struct DependencyArgs {
    CommonOptions common;
    std::vector<std::string> uris;
    bool allow_unknown_scheme = false;
};

int run_dependency(const DependencyArgs& args, Reporter& reporter) {
    DependencyOptions options;
    options.allow_unknown_scheme = args.allow_unknown_scheme;
    options.limits = args.common.limits;
    boost::json::array out;
    int status = exit_ok;
    for (const auto& uri : args.uris) {
        auto result = parse_dependency(uri, options);
        if (const int s = reporter.report(result.diagnostics(), uri); s != exit_ok) {
            status = std::max(status, s);
            continue;
        }
        out.push_back(to_json_value(result.value()));
    }
    if (status != exit_ok)
        return status;
    return write_output(to_json_text(out, args.common.pretty), reporter);
}

} // namespace

Command add_dependency_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<DependencyArgs>();
    CLI::App* app = parent.add_subcommand(
        "dependency", "Compile RFC 26 dependency URIs (scheme:value?key=val) to JSON objects");
    app->add_option("URI", args->uris, "Dependencies, e.g. afterok:ƒ2oLkTLb")->required();
    app->add_flag("--allow-unknown-scheme", args->allow_unknown_scheme,
                  "Accept schemes jobspec does not know (RFC 26 lets plugins add schemes)");
    add_common_options(*app, args->common, reporter);
    app->footer(R"(URI form: scheme:value[?key=val[&key=val...]], '&' or ';' between options, %XX
decoded. Schemes: after (deprecated; use afterstart), afterstart, afterany, afterok,
afternotok, afterexcept (a job id in any RFC 19 encoding), begin-time (seconds since the
epoch), string and fluid (need type=in|out|inout and scope=user|global), singleton.

Examples:
  jobspec dependency afterok:ƒ2oLkTLb 'string:foo?type=out;scope=user'

Prints one JSON array of all of them; nothing when any is invalid.
Exit status: 0 all valid, 1 a dependency is invalid, 2 usage error.)");
    return Command{app, [args, &reporter] { return run_dependency(*args, reporter); }};
}

} // namespace jobspec::cli
