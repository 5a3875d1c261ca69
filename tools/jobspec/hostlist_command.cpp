#include "hostlist_command.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

#include "codec_reports.hpp"

namespace jobspec::cli {

namespace {

/// The most repeated hosts -S sorts (each costs a run of its own).
constexpr std::uint64_t max_sorted_repeats = 1'000'000;

struct HostlistArgs {
    CommonOptions common;
    std::vector<std::string> sources;
    bool expand = false;
    std::string delimiter = " ";
    bool count = false;
    std::optional<std::string> nth;
    std::optional<std::string> find;
    std::optional<std::int64_t> limit;
    bool sort = false;
    std::optional<std::string> exclude;
    bool unique = false;
    bool intersect = false;
    bool minus = false;
    bool xor_ = false;
    bool fallback = false;
    bool local = false;
    bool quiet = false;
};

/// Whether `word` is one host name as written (no brackets or commas), which needs no parsing.
bool plain_host(std::string_view word) {
    return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return c > ' ' && c < 0x7F && c != '[' && c != ']' && c != ',';
    });
}

/// The hosts on standard input: hostlists separated by whitespace or newlines (what
/// `jobspec hostlist -e` prints reads back). The one place the command reads input.
std::optional<Hostlist> read_stdin(const CommonOptions& common, Reporter& reporter, int& status) {
    // Empty input is no hosts, as for flux hostlist.
    const auto text = reporter.read("-", common.limits, status, true);
    if (!text)
        return std::nullopt;
    Hostlist out;
    std::size_t pos = 0;
    while (true) {
        pos = text->find_first_not_of(" \t\r\n\v\f", pos);
        if (pos == std::string::npos)
            break;
        const std::size_t end = std::min(text->find_first_of(" \t\r\n\v\f", pos), text->size());
        const std::string_view word = std::string_view(*text).substr(pos, end - pos);
        if (plain_host(word)) {  // the usual input: one a line
            out.append(word);
            pos = end;
            continue;
        }
        auto hosts = Hostlist::parse(word);
        if (!hosts) {
            status = std::max(status, reporter.report(hosts.diagnostics(), word));
            return std::nullopt;
        }
        out.append(hosts.value());
        pos = end;
    }
    return out;
}

/// The hosts at positions IDS, or at IDS counted from the end for "-IDS" (as `flux
/// hostlist -n` does: -1 is the last, -0 the first); nothing when one is out of range.
std::optional<Hostlist> nth(const Hostlist& hosts, const std::string& spec, Reporter& reporter,
                            int& status) {
    const bool from_end = !spec.empty() && spec[0] == '-';
    const std::string_view text = std::string_view(spec).substr(from_end ? 1 : 0);
    auto parsed = IdSet::parse(text);
    if (!parsed) {
        status = report_option_value("-n", "[-]IDS", spec, parsed.diagnostics(), reporter);
        return std::nullopt;
    }
    const IdSet& ids = parsed.value();
    const std::uint64_t n = hosts.count();
    if (!ids.empty() && (from_end ? ids.last() > n : ids.last() >= n)) {
        status = reporter.report(Code::hostlist_index,
                                 fmt::format("-n {}: the hostlist has {} hosts", spec, n));
        return std::nullopt;
    }
    if (!from_end)
        return hosts.pick(ids);
    // Largest offset first, so the hosts come out in list order; -0 is the first host.
    IdSet positions;
    for (const auto& r : ids.without(IdSet::range(0, 0)).ranges())
        positions.insert(n - r.last, n - r.first);
    Hostlist out = hosts.pick(positions);
    if (ids.contains(0))
        out.append(hosts.pick(IdSet::range(0, 0)));
    return out;
}

/// Calls `f` with each host of the list in order, one name at a time (a run of billions
/// of hosts is never held in memory).
template <class F>
void for_each_host(const Hostlist& hosts, F f) {
    for (const auto& run : hosts.runs()) {
        Hostlist one;
        one.append(run);
        for (std::uint64_t i = 0; i < run.size(); ++i)
            f(*one.nth(i));
    }
}

/// The most hosts in_flux_order() sorts name by name: flux-core refuses a longer range.
constexpr std::uint64_t max_flux_sorted = std::uint64_t{1} << 20;
/// The most hosts -F looks up.
constexpr std::uint64_t max_found = std::uint64_t{1} << 20;

/// How flux-core orders a host name: by its text without the trailing digits, then by
/// their number (and count). So a number inside a name sorts as text: n10-ib before n2-ib.
struct FluxKey {
    std::string_view stem;
    bool numbered;
    std::uint64_t number;
    std::size_t digits;
    friend bool operator<(const FluxKey& a, const FluxKey& b) {
        return std::tie(a.stem, a.numbered, a.number, a.digits) <
               std::tie(b.stem, b.numbered, b.number, b.digits);
    }
};

FluxKey flux_key(std::string_view host) {
    std::size_t begin = host.size();
    while (begin > 0 && host[begin - 1] >= '0' && host[begin - 1] <= '9')
        --begin;
    std::uint64_t number = 0;
    const std::string_view digits = host.substr(begin);
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (digits.empty() || parsed.ec != std::errc{})
        return {host, false, 0, 0};
    return {host.substr(0, begin), true, number, digits.size()};
}

/// A list sorted by Hostlist (numbers in names compare as numbers) in flux-core's order:
/// names with text after their number sorted again by text, name by name. Lists with more
/// than 2^20 hosts, which flux-core cannot hold, keep Hostlist's order (no name is spelled
/// out for them; docs/COMPAT.md).
Hostlist in_flux_order(Hostlist sorted) {
    const auto& runs = sorted.runs();
    if (sorted.count() > max_flux_sorted ||
        std::none_of(runs.begin(), runs.end(), [](const auto& r) { return !r.suffix.empty(); }))
        return sorted;
    auto names = sorted.expand();
    std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return flux_key(a) < flux_key(b);
    });
    Hostlist out;
    for (const auto& name : names)
        out.append(name);
    return out;
}

/// Writes the hosts joined by `delimiter`, a block at a time.
int write_expanded(const Hostlist& hosts, const std::string& delimiter, Reporter& reporter) {
    std::string out;
    bool first = true;
    int status = exit_ok;
    for_each_host(hosts, [&](const std::string& host) {
        if (!first)
            out += delimiter;
        first = false;
        out += host;
        if (out.size() > (1U << 16) && status == exit_ok) {
            status = write_output(out, reporter);
            out.clear();
        }
    });
    return status == exit_ok ? write_output(out + "\n", reporter) : status;
}

int run_hostlist(HostlistArgs& a, Reporter& reporter) {
    if (a.local)
        return reporter.usage(Code::usage_option_value,
                              "-l/--local means the hosts of a Flux instance or job, which "
                              "jobspec cannot ask for; give hostlists or - (standard input)");
    int status = exit_ok;
    if (a.sources.empty())
        a.sources.emplace_back("-");
    // Each source is folded in as it is read: no list of 100,000 one-host lists.
    Hostlist hl;
    bool first = true;
    const bool appending = !a.intersect && !a.xor_ && !a.minus;
    const auto combine = [&](Hostlist x) {
        if (std::exchange(first, false))
            hl = std::move(x);
        else if (a.intersect)
            hl = in_flux_order(hl.intersected(x));
        else if (a.xor_)
            hl = in_flux_order(hl.without(x).united(x.without(hl)));
        else if (a.minus)
            hl = hl.removed(x);
        else
            hl.append(x);
    };
    bool stdin_read = false;
    for (const std::string& given : a.sources) {
        const std::string_view source = given;  // compared by length first, unlike std::string
        if (source == "-" || source == "stdin") {
            auto hosts = stdin_read ? Hostlist{} : read_stdin(a.common, reporter, status);
            stdin_read = true;
            if (!hosts)
                return status;
            combine(std::move(*hosts));
        } else if (source == "instance" || source == "local" || source == "avail" ||
                   source == "available") {
            return reporter.usage(Code::usage_option_value,
                                  "'" + given +
                                      "' names the hosts of a Flux instance, which jobspec "
                                      "cannot ask for");
        } else if (appending && plain_host(source)) {
            hl.append(source);
            first = false;
        } else {
            auto hosts = Hostlist::parse(source);
            if (!hosts)
                return reporter.report(hosts.diagnostics(), source);
            combine(std::move(hosts).value());
        }
    }
    if (a.exclude) {
        // Hosts first; when none of them is there, positions (flux-core's order of trying).
        auto hosts = Hostlist::parse(*a.exclude);
        if (!hosts)
            return report_option_value("-x", "IDS or HOSTS", *a.exclude, hosts.diagnostics(), reporter);
        Hostlist left = hl.excluding(hosts.value());
        if (left.count() == hl.count()) {
            if (auto positions = IdSet::parse(*a.exclude); positions && !hl.empty())
                left = hl.pick(IdSet::range(0, hl.count() - 1).without(positions.value()));
        }
        hl = std::move(left);
    }
    if (a.sort) {
        // Sorting keeps repeats, each on its own: bounded, as hostile input asks for billions.
        const std::uint64_t repeats = hl.count() - hl.unique().count();
        if (repeats > max_sorted_repeats) {
            return reporter.report(
                Code::hostlist_repeats,
                fmt::format("-S lists every repeated host on its own, and {} hosts are repeats "
                            "(at most {}); -u drops them",
                            repeats, max_sorted_repeats));
        }
        hl = in_flux_order(hl.sorted());
    }
    if (a.unique)
        hl = in_flux_order(hl.unique());
    if (a.limit && *a.limit != 0 && !hl.empty()) {
        const std::uint64_t n = hl.count();
        const std::uint64_t want =
            std::min<std::uint64_t>(n, *a.limit > 0 ? static_cast<std::uint64_t>(*a.limit)
                                                    : 0 - static_cast<std::uint64_t>(*a.limit));
        hl = hl.pick(*a.limit > 0 ? IdSet::range(0, want - 1) : IdSet::range(n - want, n - 1));
    }
    if (a.nth) {
        auto picked = nth(hl, *a.nth, reporter, status);
        if (!picked)
            return status;
        hl = std::move(*picked);
    }

    std::string out;
    if (a.find && !a.find->empty()) { // flux ignores an empty -F (its value is false)
        auto hosts = Hostlist::parse(*a.find);
        if (!hosts)
            return report_option_value("-F", "a hostlist", *a.find, hosts.diagnostics(), reporter);
        // Each host's position is held until all are found (as flux prints none when one
        // is missing): at most flux's longest range of hosts.
        if (hosts.value().count() > max_found)
            return report_too_many(hosts.value().count(), "hosts for -F", reporter, max_found);
        Hostlist missing;
        for_each_host(hosts.value(), [&](const std::string& host) {
            if (const auto at = hl.find(host))
                out += (out.empty() ? "" : " ") + std::to_string(*at);
            else
                missing.append(host);
        });
        if (!missing.empty())
            return reporter.report(Code::hostlist_not_found,
                                   fmt::format("host{} '{}' not found",
                                               missing.count() > 1 ? "s" : "", missing.encode()));
        out += "\n";
    } else if (a.count) {
        out = std::to_string(hl.count()) + "\n";
    } else if (a.expand && hl.count() > max_spelled_out) {
        return report_too_many(hl.count(), "hosts", reporter);
    } else if (a.expand && !hl.empty() && !a.quiet) {
        std::string delimiter = a.delimiter;
        for (std::size_t at; (at = delimiter.find("\\n")) != std::string::npos;)
            delimiter.replace(at, 2, "\n");
        status = write_expanded(hl, delimiter, reporter);
    } else if (!a.expand && !hl.empty()) {
        out = hl.encode() + "\n";
    }
    if (!a.quiet && status == exit_ok)
        status = write_output(out, reporter);
    if (status == exit_ok && a.quiet && hl.empty())
        return exit_invalid;
    return status;
}

} // namespace

Command add_hostlist_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<HostlistArgs>();
    CLI::App* app = parent.add_subcommand(
        "hostlist", "Combine, filter and print RFC 29 hostlists (like flux hostlist)");
    app->add_option("SOURCES", a->sources,
                    "Hostlists, or - (or stdin) for hostlists on standard input separated by "
                    "spaces or newlines; default -");
    auto* expand =
        app->add_flag("-e,--expand", a->expand, "Print every host, separated by the delimiter");
    app->add_option("-d,--delimiter", a->delimiter,
                    "Separator for --expand (\\n for newline; default ' ')");
    auto* count = app->add_flag("-c,--count", a->count, "Print how many hosts");
    expand->excludes(count);
    app->add_option("-n,--nth", a->nth,
                    "Only the hosts at positions IDS (from 0), or -IDS counted from the end")
        ->allow_extra_args(false);
    app->add_option("-F,--find", a->find,
                    "Print the positions of HOSTS (fails when one is not there)");
    app->add_option("-L,--limit", a->limit, "At most N hosts (-N: the last N)")
        ->allow_extra_args(false);
    app->add_flag("-S,--sort", a->sort, "Sort the hosts (as flux-core sorts them)");
    app->add_option("-x,--exclude", a->exclude,
                    "Leave out HOSTS, or when none of them is there the positions IDS");
    app->add_flag("-u,--union,--unique", a->unique, "Sorted, without repeated hosts");
    auto* intersect =
        app->add_flag("-i,--intersect", a->intersect, "The hosts in every hostlist (sorted)");
    auto* minus =
        app->add_flag("-m,--minus", a->minus, "The first hostlist without the hosts of the others");
    auto* xor_ = app->add_flag("-X,--xor", a->xor_, "The hosts in an odd number of hostlists");
    intersect->excludes(minus)->excludes(xor_);
    minus->excludes(xor_);
    app->add_flag("-f,--fallback", a->fallback,
                  "(flux-core: job ids as host names; jobspec always reads host names)");
    app->add_flag("-l,--local", a->local, "(flux-core: this instance's hosts; refused)");
    app->add_flag("-q,--quiet", a->quiet, "Print nothing; exit 1 when the result is empty");
    add_common_options(*app, a->common, reporter);
    app->footer(R"(Steps, in this order: combine the SOURCES (append; or -i, -m, -X), -x, -S, -u,
-L, -n; then print -F, -c, -e or the hostlist (nothing for an empty one).

Examples:
  jobspec hostlist 'node[0-3]' node7               -> node[0-3,7]
  jobspec hostlist -e -d '\n' 'node[0-3]'          one host a line
  jobspec hostlist -m 'node[0-15]' 'node[4-7]'     -> node[0-3,8-15]
  jobspec hostlist -n -1 'node[0-15]'              -> node15
  jobspec hostlist -e 'n[1-3]' | jobspec hostlist  -> n[1-3]

Exit status: 0 success, 1 an invalid hostlist, a host not found, or an empty result
with -q, 2 usage error.)");
    return Command{app, [a, &reporter] { return run_hostlist(*a, reporter); }};
}

} // namespace jobspec::cli
