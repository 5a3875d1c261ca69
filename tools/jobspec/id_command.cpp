#include "id_command.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <jobspec/fluid.hpp>

#include "line_stream.hpp"

namespace jobspec::cli {

namespace {

struct IdArgs {
    CommonOptions common;
    std::vector<std::string> ids;
    std::string to = "dec";
};

/// Prints one id in `to`, or reports why it is not one (`line`: its line of standard
/// input, or 0 for an argument) and returns false. The status rises with each problem.
bool convert(const std::string& id, FluidEncoding to, std::size_t line, std::string& out,
             Reporter& reporter, int& status) {
    auto decoded = parse_fluid(id);
    if (const int s = reporter.report(decoded.diagnostics(), id, line > 0 ? "-" : "", line);
        s != exit_ok) {
        status = std::max(status, s);
        return false;
    }
    out += encode_fluid(decoded.value().id, to);
    out += '\n';
    return true;
}

int run_id(const IdArgs& args, Reporter& reporter) {
    const FluidEncoding to = *encoding_from_name(args.to);
    int status = exit_ok;
    std::string out;
    for (const auto& id : args.ids.empty() ? std::vector<std::string>{"-"} : args.ids) {
        if (id != "-") {
            convert(id, to, 0, out, reporter, status);
            continue;
        }
        // Standard input is a stream of ids, one a line, as `flux jobs` prints them: each
        // line is held alone (a blank line is an empty id, as for flux job id).
        LineStream lines(args.common.limits);
        while (const auto line = lines.next(reporter, status)) {
            if (!convert(*line, to, lines.line(), out, reporter, status) &&
                !lines.bad(reporter, status))
                break;
            if (out.size() > 1 << 16) {
                if (const int written = write_output(out, reporter); written != exit_ok)
                    return written;
                out.clear();
            }
        }
    }
    const int written = write_output(out, reporter);
    return status != exit_ok ? status : written;
}

} // namespace

Command add_id_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<IdArgs>();
    CLI::App* app =
        parent.add_subcommand("id", "Convert Flux job ids (FLUIDs) between RFC 19 encodings");
    app->add_option("ID", args->ids,
                    "Job ids in any encoding (detected as RFC 19 says); none or - reads one a "
                    "line from standard input");
    app->add_option("-t,--to", args->to, "Encoding to print (case ignored)")
        ->check([](const std::string& name) {
            return encoding_from_name(name)
                       ? std::string()
                       : "'" + name +
                             "' is not dec, hex, dothex, kvs, f58, f58plain, words or emoji";
        })
        ->capture_default_str();
    add_common_options(*app, args->common, reporter);
    app->footer(
        R"(Encodings: dec 6731191091817518, hex 0x17e9fb8df16c2e, dothex 0017.e9fb.8df1.6c2e,
kvs job.0017.e9fb.8df1.6c2e, f58 ƒuZZybuNNy, f58plain fuZZybuNNy (both are read as
f58), words reform-remote-galileo--heart-package-academy, emoji (base 576).

Examples:
  jobspec id --to words 6731191091817518
  jobspec id -t f58plain ƒuZZybuNNy 0x17e9fb8df16c2e
  flux jobs -no {id} | jobspec id -t dec

Prints one converted id a line, in input order; a bad id is reported on stderr and the
others are still converted.
Exit status: 0 all converted, 1 an id is invalid (or there is none), 2 usage error.)");
    return Command{app, [args, &reporter] { return run_id(*args, reporter); }};
}

} // namespace jobspec::cli
