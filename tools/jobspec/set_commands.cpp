#include "set_commands.hpp"

#include <charconv>
#include <memory>
#include <vector>

#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

namespace jobspec::cli {

namespace {

struct SetArgs {
    CommonOptions common;
    std::string op;
    std::vector<std::string> args;
};

/// Reports a codec error as a diagnostic under `argument`; returns exit_invalid.
template <class Error>
int codec_error(const Error& e, const std::string& argument, Reporter& reporter) {
    Diagnostics d;
    d.add(to_diagnostic(e));
    return reporter.report(d, argument);
}

/// The sets combined left to right by `op` ("union", "intersect" or "diff").
template <class Set>
Set fold(const std::string& op, const std::vector<Set>& sets) {
    Set result = sets.empty() ? Set{} : sets.front();
    for (std::size_t i = 1; i < sets.size(); ++i) {
        if (op == "intersect")
            result = result.intersected(sets[i]);
        else if (op == "diff")
            result = result.without(sets[i]);
        else
            result = result.united(sets[i]);
    }
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

int run_idset(const SetArgs& a, Reporter& reporter) {
    std::vector<IdSet> sets;
    for (const auto& arg : a.args) {
        // encode takes ids and ranges in any order and with repeats; the others strict RFC 22.
        if (a.op == "encode") {
            IdSet s;
            std::size_t start = 0;
            while (start <= arg.size()) {
                const std::size_t comma = std::min(arg.find(',', start), arg.size());
                auto part = IdSet::parse(std::string_view(arg).substr(start, comma - start));
                if (!part) {
                    auto e = part.error();
                    e.offset += start;
                    return codec_error(e, arg, reporter);
                }
                s = s.united(*part);
                start = comma + 1;
            }
            sets.push_back(std::move(s));
            continue;
        }
        auto parsed = IdSet::parse(arg);
        if (!parsed)
            return codec_error(parsed.error(), arg, reporter);
        sets.push_back(std::move(*parsed));
    }
    Out out(reporter);
    if (a.op == "expand") {
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

int run_hostlist(const SetArgs& a, Reporter& reporter) {
    std::vector<std::string> args = a.args;
    std::optional<std::uint64_t> nth;
    std::string find;
    if (a.op == "nth" || a.op == "find") {
        if (args.empty())
            return reporter.usage(Code::usage_missing_argument,
                                  a.op + " needs " + (a.op == "nth" ? "N" : "HOST") +
                                      " before the hostlists");
        if (a.op == "nth") {
            std::uint64_t n = 0;
            const auto r = std::from_chars(args[0].data(), args[0].data() + args[0].size(), n);
            if (r.ec != std::errc{} || r.ptr != args[0].data() + args[0].size())
                return reporter.usage(Code::usage_option_value,
                                      "nth: '" + args[0] + "' is not a position (from 0)");
            nth = n;
        } else {
            find = args[0];
        }
        args.erase(args.begin());
    }
    std::vector<Hostlist> lists;
    for (const auto& arg : args) {
        auto parsed = Hostlist::parse(arg);
        if (!parsed)
            return codec_error(parsed.error(), arg, reporter);
        lists.push_back(std::move(*parsed));
    }
    Hostlist all;
    for (const auto& l : lists)
        all.append(l);
    Out out(reporter);
    if (a.op == "expand") {
        for (const auto& run : all.runs()) {
            Hostlist one;
            one.append(run);
            for (const auto& host : one.expand())
                out.line(host);
        }
        return out.flush();
    }
    if (a.op == "count") {
        out.line(std::to_string(all.count()));
        return out.flush();
    }
    if (nth) {
        auto host = all.nth(*nth);
        if (!host)
            return reporter.report(Code::hostlist_index,
                                   "there are only " + std::to_string(all.count()) + " hosts");
        out.line(*host);
        return out.flush();
    }
    if (a.op == "find") {
        auto at = all.find(find);
        if (!at)
            return reporter.report(Code::hostlist_not_found, "'" + find + "' is not in the list");
        out.line(std::to_string(*at));
        return out.flush();
    }
    Hostlist result;
    if (a.op == "encode") {
        result = all;
    } else if (a.op == "sort") {
        result = all.sorted();
    } else if (a.op == "uniq") {
        result = all.unique();
    } else {
        result = fold(a.op, lists);
        if (lists.size() == 1 && a.op == "union")
            result = result.unique();
    }
    out.line(result.encode());
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
    app->add_option("IDSET", args->args, "Idsets, e.g. 0-3,7 or [1-4]");
    add_common_options(*app, args->common, reporter);
    app->footer(R"(Examples:
  jobspec idset expand 0-3,7            one id a line
  jobspec idset encode 7,3,1,2,2        -> 1-3,7
  jobspec idset diff 0-15 4-7           -> 0-3,8-15

Exit status: 0 success, 1 an invalid idset, 2 usage error.)");
    return Command{app, [args, &reporter] { return run_idset(*args, reporter); }};
}

Command add_hostlist_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<SetArgs>();
    CLI::App* app =
        parent.add_subcommand("hostlist", "Work with RFC 29 hostlists (like node[0-15])");
    app->add_option("OPERATION", args->op,
                    "expand, encode (the shortest hostlist for hosts in order), count, nth N, "
                    "find HOST, sort, uniq, union, intersect, diff")
        ->check(CLI::IsMember({"expand", "encode", "count", "nth", "find", "sort", "uniq", "union",
                               "intersect", "diff"}))
        ->required();
    app->add_option("HOSTLIST", args->args,
                    "Hostlists or host names (nth and find take N or HOST first)");
    add_common_options(*app, args->common, reporter);
    app->footer(R"(Examples:
  jobspec hostlist expand 'node[0-3]'              one host a line
  jobspec hostlist encode node1 node2 node3 node7   -> node[1-3,7]
  jobspec hostlist nth 5 'node[0-15]'              -> node5
  jobspec hostlist diff 'node[0-15]' 'node[4-7]'   -> node[0-3,8-15]

Exit status: 0 success, 1 an invalid hostlist or no such host, 2 usage error.)");
    return Command{app, [args, &reporter] { return run_hostlist(*args, reporter); }};
}

} // namespace jobspec::cli
