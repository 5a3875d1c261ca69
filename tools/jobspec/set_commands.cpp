#include "set_commands.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <jobspec/idset.hpp>

#include "codec_reports.hpp"
#include "line_stream.hpp"

namespace jobspec::cli {

namespace {

struct SetArgs {
    CommonOptions common;
    std::string op;
    std::vector<std::string> args;
};

/// The sets combined left to right by `op` ("intersect", "diff", else their union), in time
/// linear in their ranges: a union and a difference take the union of the rest at once.
IdSet fold(const std::string& op, const std::vector<IdSet>& sets) {
    if (sets.empty())
        return {};
    if (op == "diff")
        return sets.front().without(
            IdSet::union_of(std::vector<IdSet>(sets.begin() + 1, sets.end())));
    if (op != "intersect")
        return IdSet::union_of(sets);
    IdSet result = sets.front();
    for (std::size_t i = 1; i < sets.size() && !result.empty(); ++i)
        result = result.intersected(sets[i]);
    return result;
}

/// Streams text in blocks so that expanding a huge set does not build it in memory.
class Out {
public:
    explicit Out(Reporter& reporter) : reporter_(reporter) {}
    void line(std::string_view s) {
        buffer_ += s;
        buffer_ += '\n';
        if (buffer_.size() > 1 << 16)
            flush();
    }
    int flush() {
        const int status = write_output(buffer_, reporter_);
        buffer_.clear();
        return status;
    }

private:
    Reporter& reporter_;
    std::string buffer_;
};

/// One idset as the operation reads it (`line`: its line of standard input, or 0 for an
/// argument); nothing when it is not one (reported). encode takes ids and ranges in any
/// order and with repeats; the others strict RFC 22.
std::optional<IdSet> read_idset(const std::string& arg, const std::string& op, std::size_t line,
                                Reporter& reporter) {
    const std::string_view path = line > 0 ? "-" : "";
    if (op != "encode") {
        auto parsed = IdSet::parse(arg);
        if (!parsed) {
            reporter.report(parsed.diagnostics(), arg, path, line);
            return std::nullopt;
        }
        return std::move(parsed).value();
    }
    std::vector<IdSet> parts;
    // RFC 22's optional brackets go around the whole list, not around one part.
    const bool bracketed = arg.size() >= 2 && arg.front() == '[' && arg.back() == ']';
    std::size_t start = bracketed ? 1 : 0;
    const std::size_t end = bracketed ? arg.size() - 1 : arg.size();
    // Each part is an id or a range: a bracket inside is another pair, which RFC 22 has not.
    if (const auto inner = std::string_view(arg).substr(start, end - start).find_first_of("[]");
        inner != std::string_view::npos) {
        Diagnostics brackets;
        brackets.add(Code::idset_syntax,
                     fmt::format("unexpected '{}': brackets go around the whole set, once",
                                 arg[start + inner]),
                     Location(SourceRange{static_cast<std::uint32_t>(start + inner),
                                          static_cast<std::uint32_t>(start + inner + 1)}));
        reporter.report(brackets, arg, path, line);
        return std::nullopt;
    }
    while (start <= end) {
        const std::size_t comma = std::min(arg.find(',', start), end);
        auto part = IdSet::parse(std::string_view(arg).substr(start, comma - start));
        if (!part) {
            Diagnostics in_arg;
            for (Diagnostic d : part.diagnostics()) {
                d.shift(start);
                in_arg.add(std::move(d));
            }
            reporter.report(in_arg, arg, path, line);
            return std::nullopt;
        }
        parts.push_back(std::move(part).value());
        start = comma + 1;
    }
    return IdSet::union_of(parts);
}

int run_idset(const SetArgs& a, Reporter& reporter) {
    std::vector<IdSet> sets;
    int status = exit_ok;
    if (a.args.empty()) {
        // No idsets given: one a line from standard input, each line held alone.
        LineStream lines(a.common.limits);
        while (const auto line = lines.next(reporter, status)) {
            auto set = read_idset(*line, a.op, lines.line(), reporter);
            if (!set)
                return std::max(status, exit_invalid);
            sets.push_back(std::move(*set));
        }
        if (status != exit_ok)
            return status;
    }
    for (const auto& arg : a.args) {
        auto set = read_idset(arg, a.op, 0, reporter);
        if (!set)
            return exit_invalid;
        sets.push_back(std::move(*set));
    }
    Out out(reporter);
    if (a.op == "expand") {
        std::uint64_t total = 0;
        for (const auto& s : sets)
            total = s.count() > UINT64_MAX - total ? UINT64_MAX : total + s.count();
        if (total > max_spelled_out)
            return report_too_many(total, "ids", reporter);
        for (const auto& s : sets)
            for (const auto id : s)
                out.line(std::to_string(id));
        return out.flush();
    }
    if (a.op == "count") {
        for (const auto& s : sets)
            out.line(std::to_string(s.count()));
        return out.flush();
    }
    out.line(fold(a.op, sets).format());
    return out.flush();
}

} // namespace

Command add_idset_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<SetArgs>();
    CLI::App* app =
        parent.add_subcommand("idset", "Work with RFC 22 idsets (sets of ids like 0-3,7)");
    app->add_option(
           "OPERATION", args->op,
           "expand, encode (compress ids given in any order), count, union, intersect, diff")
        ->check(CLI::IsMember({"expand", "encode", "count", "union", "intersect", "diff"}))
        ->required();
    app->add_option("IDSET", args->args,
                    "Idsets, e.g. 0-3,7 or [1-4]; none: one a line from standard input");
    add_common_options(*app, args->common, reporter);
    app->footer(R"(Examples:
  jobspec idset expand 0-3,7            one id a line
  jobspec idset encode 7,3,1,2,2        -> 1-3,7
  jobspec idset diff 0-15 4-7           -> 0-3,8-15

Exit status: 0 success, 1 an invalid idset, 2 usage error.)");
    return Command{app, [args, &reporter] { return run_idset(*args, reporter); }};
}

} // namespace jobspec::cli
