#include "directives_command.hpp"

#include <memory>

#include <boost/json/array.hpp>

#include <jobspec/emit.hpp>
#include <jobspec/input.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::cli {

namespace {

struct DirectivesArgs {
    CommonOptions common;
    std::string path = "-";
};

int run_directives(const DirectivesArgs& args, Reporter& out) {
    int status = exit_ok;
    auto text = out.read(args.path, args.common.limits, status, true);
    if (!text)
        return status;
    auto prepared = prepare_batch_script(*text, input_name(args.path));
    if (const int s = out.outcome(prepared); s != exit_ok)
        return s;
    const std::string& script = prepared.value();
    auto directives = parse_directives(script);
    if (const int s = out.outcome(directives, script, args.path); s != exit_ok)
        return s;
    boost::json::array vectors;
    for (const auto& d : directives.value()) {
        boost::json::array words;
        for (const auto& w : d.arguments)
            words.emplace_back(boost::json::string(w));
        vectors.push_back(std::move(words));
    }
    return write_output(to_json_text(vectors, args.common.pretty), out);
}

} // namespace

Command add_directives_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<DirectivesArgs>();
    CLI::App* app = parent.add_subcommand(
        "directives", "Print the RFC 36 submission directives of a batch script as JSON");
    app->add_option("FILE", args->path, "The script ('-' for standard input)")
        ->capture_default_str();
    add_common_options(*app, args->common, reporter);
    app->footer(R"(Prints one JSON array holding the argument vector of each directive, in order, as
'flux batch' reads them (flux-core 0.88): "#flux: -N4 --job-name='a b'" gives
["-N4","--job-name=a b"]. Errors (an orphan directive, a changed sentinel, an unclosed
quote, a value that is not an option) point at the line and column.

Example:
  jobspec directives job.sh

Exit status: 0 success, 1 invalid directives, 2 usage error or unreadable file.)");
    return Command{app, [args, &reporter] { return run_directives(*args, reporter); }};
}

} // namespace jobspec::cli
