#include "id_command.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <vector>

#include <jobspec/fluid.hpp>

namespace jobspec::cli {

namespace {

struct IdArgs {
    CommonOptions common;
    std::vector<std::string> ids;
    std::string to = "dec";
};

int run_id(const IdArgs& args, Reporter& reporter) {
    const FluidEncoding to = *encoding_from_name(args.to);
    int status = exit_ok;
    std::vector<std::string> ids;
    for (const auto& id : args.ids) {
        if (id != "-") {
            ids.push_back(id);
            continue;
        }
        const auto text = reporter.read("-", args.common.limits, status);
        if (!text)
            return status;
        std::istringstream lines(*text);
        for (std::string line; std::getline(lines, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos)
                ids.push_back(line);
    }
    std::string out;
    for (const auto& id : ids) {
        auto decoded = parse_fluid(id);
        if (const int s = reporter.report(decoded.diagnostics(), id); s != exit_ok) {
            status = std::max(status, s);
            continue;
        }
        out += encode_fluid(decoded.value().id, to);
        out += '\n';
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
                    "Job ids in any encoding (detected as RFC 19 says); - reads one per line "
                    "from standard input")
        ->required();
    app->add_option("--to", args->to, "Encoding to print")
        ->check(CLI::IsMember({"dec", "hex", "dothex", "kvs", "f58", "words", "emoji"}))
        ->capture_default_str();
    add_common_options(*app, args->common, reporter);
    app->footer(
        R"(Encodings: dec 6731191091817518, hex 0x17e9fb8df16c2e, dothex 0017.e9fb.8df1.6c2e,
kvs job.0017.e9fb.8df1.6c2e, f58 ƒuZZybuNNy (or fuZZybuNNy), words
reform-remote-galileo--heart-package-academy, emoji (base 576).

Examples:
  jobspec id --to words 6731191091817518
  jobspec id ƒuZZybuNNy 0x17e9fb8df16c2e

Prints one converted id a line, in input order; a bad id is reported on stderr.
Exit status: 0 all converted, 1 an id is invalid, 2 usage error.)");
    return Command{app, [args, &reporter] { return run_id(*args, reporter); }};
}

} // namespace jobspec::cli
