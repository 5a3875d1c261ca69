#include "r_command.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/resource_set.hpp>

#include "support/json_parse.hpp"

namespace jobspec::cli {

namespace {

struct RArgs {
    CommonOptions common;
    std::vector<std::string> inputs;
    // encode
    std::string ranks = "0";
    std::string cores = "0";
    std::string gpus;
    std::string hosts;
    std::vector<std::string> properties;
    // decode
    bool short_form = false;
    bool nodelist = false;
    bool ranks_only = false;
    std::string count;
    std::string include;
    std::string exclude;
    std::string with_properties;
    // rerank
    std::string rerank_hosts;
};

/// Every R document in the inputs (files, or standard input for "-"), one after another.
std::optional<std::vector<ResourceSet>> read_all(const std::vector<std::string>& inputs,
                                                 const CommonOptions& common, Reporter& reporter,
                                                 int& status) {
    std::vector<ResourceSet> out;
    for (const auto& input : inputs) {
        const auto text = reporter.read(input, common.limits, status);
        if (!text)
            return std::nullopt;
        std::string_view rest = *text;
        while (rest.find_first_not_of(" \t\r\n") != std::string_view::npos) {
            boost::json::error_code ec;
            std::size_t used = 0;
            auto value = support::parse_json(rest, ec, common.limits.effective_depth(), {}, &used);
            if (ec) {
                Diagnostics d;
                d.add(Code::R_json_syntax, "R is not valid JSON: " + ec.message(),
                      Location{SourceRange{
                                   static_cast<std::uint32_t>(text->size() - rest.size() + used),
                                   static_cast<std::uint32_t>(text->size() - rest.size() + used)},
                               {}});
                status = std::max(status, reporter.report(d, *text, input));
                return std::nullopt;
            }
            auto r = resource_set_from_json(value);
            if (status = std::max(status, reporter.report(r.diagnostics(), *text, input));
                status != exit_ok)
                return std::nullopt;
            out.push_back(std::move(r).value());
            rest.remove_prefix(used);
        }
    }
    return out;
}

int print(const ResourceSet& r, const CommonOptions& common, Reporter& reporter) {
    return write_output(to_json_text(to_json_value(r), common.pretty), reporter);
}

/// An idset of ranks, or a hostlist mapped to ranks through the nodelist.
std::optional<IdSet> targets(const ResourceSet& r, const std::string& spec) {
    if (auto ids = IdSet::parse(spec))
        return *ids;
    auto hosts = Hostlist::parse(spec);
    if (!hosts)
        return std::nullopt;
    return r.ranks_of(*hosts);
}

int run_encode(const RArgs& a, Reporter& reporter) {
    const auto usage = [&](const std::string& message) {
        return reporter.usage(Code::usage_option_value, message);
    };
    auto ranks = IdSet::parse(a.ranks);
    auto cores = IdSet::parse(a.cores);
    auto gpus = IdSet::parse(a.gpus);
    if (!ranks || !cores || !gpus)
        return usage("-r, -c and -g take idsets, e.g. 0-3");
    ResourceSet r;
    r.add(*ranks, *cores, *gpus);
    if (!a.hosts.empty()) {
        auto hosts = Hostlist::parse(a.hosts);
        if (!hosts)
            return usage("-H '" + a.hosts + "' is not a hostlist: " + hosts.error().message);
        if (!r.set_nodelist(*hosts))
            return usage("-H names " + std::to_string(hosts->count()) + " hosts for " +
                         std::to_string(r.count_ranks()) + " ranks");
    }
    for (const auto& spec : a.properties) {
        const auto colon = spec.rfind(':');
        auto on = IdSet::parse(colon == std::string::npos ? a.ranks : spec.substr(colon + 1));
        const std::string name = spec.substr(0, colon);
        if (!on || !r.set_property(name, *on))
            return usage("-p '" + spec + "' is not NAME:RANKS with ranks in -r and a valid name");
    }
    return print(r, a.common, reporter);
}

int run_decode(const RArgs& a, Reporter& reporter) {
    const auto usage = [&](const std::string& message) {
        return reporter.usage(Code::usage_option_value, message);
    };
    int status = exit_ok;
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (!all)
        return status;
    std::string out;
    for (auto& r : *all) {
        if (!a.include.empty() || !a.exclude.empty() || !a.with_properties.empty()) {
            IdSet keep = r.ranks();
            if (!a.include.empty()) {
                auto t = targets(r, a.include);
                if (!t)
                    return usage("--include '" + a.include + "' is neither ranks nor hosts of R");
                keep = keep.intersected(*t);
            }
            if (!a.exclude.empty()) {
                auto t = targets(r, a.exclude);
                if (!t)
                    return usage("--exclude '" + a.exclude + "' is neither ranks nor hosts of R");
                keep = keep.without(*t);
            }
            std::size_t start = 0;
            while (!a.with_properties.empty() && start <= a.with_properties.size()) {
                const std::size_t comma =
                    std::min(a.with_properties.find(',', start), a.with_properties.size());
                const std::string name = a.with_properties.substr(start, comma - start);
                const auto it = r.properties().find(name);
                keep = it == r.properties().end() ? IdSet{} : keep.intersected(it->second);
                start = comma + 1;
            }
            r = r.filtered(keep);
        }
        if (a.short_form)
            out += r.summary() + "\n";
        else if (a.nodelist)
            out += r.nodelist().encode() + "\n";
        else if (a.ranks_only)
            out += r.ranks().format() + "\n";
        else if (a.count == "node")
            out += std::to_string(r.count_ranks()) + "\n";
        else if (a.count == "core")
            out += std::to_string(r.count_cores()) + "\n";
        else if (a.count == "gpu")
            out += std::to_string(r.count_gpus()) + "\n";
        else
            out += to_json_text(to_json_value(r), a.common.pretty);
    }
    return write_output(out, reporter);
}

int run_info(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (!all)
        return status;
    std::string out;
    for (const auto& r : *all) {
        out += r.summary() + "\n";
        out += "  " + std::to_string(r.count_ranks()) + " ranks, " +
               std::to_string(r.count_cores()) + " cores, " + std::to_string(r.count_gpus()) +
               " gpus";
        if (!r.nodelist().empty())
            out += " on " + r.nodelist().encode();
        out += "\n";
        for (const auto& [name, ranks] : r.properties())
            out += "  property " + name + ": rank " + ranks.format() + "\n";
    }
    return write_output(out, reporter);
}

/// Folds all the inputs' R with `op`.
template <class Op>
int fold(const RArgs& a, Reporter& reporter, Op op) {
    int status = exit_ok;
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (!all)
        return status;
    ResourceSet result = all->front();
    for (std::size_t i = 1; i < all->size(); ++i) {
        auto next = op(result, (*all)[i]);
        if (!next)
            return exit_invalid;
        result = std::move(*next);
    }
    return print(result, a.common, reporter);
}

int run_verify(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (!all)
        return status;
    if (all->size() != 2)
        return reporter.usage(Code::usage_missing_argument,
                              "verify compares two R: the one that should cover, then the other");
    const ResourceSet& outer = (*all)[0];
    const ResourceSet& inner = (*all)[1];
    if (outer.includes(inner))
        return exit_ok;
    const ResourceSet missing = inner.without(outer);
    return reporter.report(Code::R_verify, "the first R lacks " + missing.summary());
}

int run_set_property(const RArgs& a, Reporter& reporter) {
    std::vector<std::string> specs;
    std::vector<std::string> inputs;
    for (const auto& arg : a.inputs)
        (arg.find(':') != std::string::npos ? specs : inputs).push_back(arg);
    if (inputs.empty())
        inputs.emplace_back("-");
    int status = exit_ok;
    auto all = read_all(inputs, a.common, reporter, status);
    if (!all)
        return status;
    std::string out;
    for (auto& r : *all) {
        for (const auto& spec : specs) {
            const auto colon = spec.rfind(':');
            auto on = IdSet::parse(spec.substr(colon + 1));
            if (!on || !r.set_property(spec.substr(0, colon), *on))
                return reporter.usage(Code::usage_option_value,
                                      "'" + spec +
                                          "' is not NAME:RANKS with ranks in R and a valid name");
        }
        out += to_json_text(to_json_value(r), a.common.pretty);
    }
    return write_output(out, reporter);
}

} // namespace

Command add_r_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<RArgs>();
    CLI::App* app =
        parent.add_subcommand("R", "Read, check, write and combine resource sets (RFC 20 R)");
    app->require_subcommand(1);
    const auto inputs = [&](CLI::App* sub, const char* what) {
        sub->add_option("R", a->inputs, what)->default_str("-");
        add_common_options(*sub, a->common, reporter);
    };

    CLI::App* encode =
        app->add_subcommand("encode", "Write R for ranks with the same cores and gpus");
    encode->add_option("-r,--ranks", a->ranks, "Ranks (idset)")->capture_default_str();
    encode->add_option("-c,--cores", a->cores, "Cores of each rank (idset)")->capture_default_str();
    encode->add_option("-g,--gpus", a->gpus, "GPUs of each rank (idset)");
    encode->add_option("-H,--hosts", a->hosts, "Host names, one per rank (hostlist)");
    encode
        ->add_option("-p,--property", a->properties,
                     "NAME:RANKS (or NAME for all ranks; repeatable)")
        ->allow_extra_args(false);
    add_common_options(*encode, a->common, reporter);

    CLI::App* decode =
        app->add_subcommand("decode", "Read R, check it, and print it or a part of it");
    inputs(decode,
           "R files; - reads standard input (default), several documents one after another");
    decode->add_flag("--short", a->short_form, "One line: rank[0-3]/core[0-47],gpu[0-7]");
    decode->add_flag("--nodelist", a->nodelist, "The hosts, as one hostlist");
    decode->add_flag("--ranks", a->ranks_only, "The ranks, as one idset");
    decode->add_option("--count", a->count, "How many of node, core or gpu")
        ->check(CLI::IsMember({"node", "core", "gpu"}));
    decode->add_option("--include", a->include, "Only these ranks (idset) or hosts (hostlist)");
    decode->add_option("--exclude", a->exclude, "Not these ranks (idset) or hosts (hostlist)");
    decode->add_option("--properties", a->with_properties,
                       "Only ranks with all of these properties (a,b)");

    CLI::App* info = app->add_subcommand("info", "Summarize R: groups, counts, hosts, properties");
    inputs(info, "R files; - reads standard input");
    CLI::App* verify = app->add_subcommand("verify", "Exit 0 when the first R covers the second");
    inputs(verify, "Two R (files or standard input)");
    CLI::App* append = app->add_subcommand("append", "Union of R that share no rank");
    append->alias("union");
    inputs(append, "R files; - reads standard input");
    CLI::App* diff = app->add_subcommand("diff", "The first R without the resources of the others");
    inputs(diff, "R files; - reads standard input");
    CLI::App* intersect = app->add_subcommand("intersect", "Resources that every R has");
    inputs(intersect, "R files; - reads standard input");
    CLI::App* remap = app->add_subcommand("remap", "Renumber ranks 0..n-1 in rank order");
    inputs(remap, "R files; - reads standard input");
    CLI::App* rerank =
        app->add_subcommand("rerank", "Renumber ranks by the position of their host in HOSTLIST");
    rerank->add_option("HOSTLIST", a->rerank_hosts, "Hosts in the new rank order")->required();
    inputs(rerank, "R files; - reads standard input");
    CLI::App* set_property =
        app->add_subcommand("set-property", "Add properties: NAME:RANKS... [R]");
    set_property->add_option("ARGS", a->inputs, "NAME:RANKS specs, then R files (default stdin)")
        ->required();
    add_common_options(*set_property, a->common, reporter);

    app->footer(R"(Examples:
  jobspec R encode -r 0-3 -c 0-47 -g 0-7 -H node[186-189]
  jobspec R encode -r 0-3 -c 0-47 | jobspec R decode --short
  cat a.json b.json | jobspec R append
  jobspec R decode --include 'node[1-2]' --count core r.json

Exit status: 0 success, 1 invalid R (or verify finds the first R does not cover the
second), 2 usage error.)");

    const auto run = [a, &reporter, encode, decode, info, verify, append, diff, intersect, remap,
                      rerank, set_property]() -> int {
        if (a->inputs.empty())
            a->inputs.emplace_back("-");
        if (encode->parsed())
            return run_encode(*a, reporter);
        if (decode->parsed())
            return run_decode(*a, reporter);
        if (info->parsed())
            return run_info(*a, reporter);
        if (verify->parsed())
            return run_verify(*a, reporter);
        if (append->parsed())
            return fold(*a, reporter,
                        [&](const ResourceSet& x,
                            const ResourceSet& y) -> std::optional<ResourceSet> {
                            auto u = x.united(y);
                            if (reporter.report(u.diagnostics()) != exit_ok)
                                return std::nullopt;
                            return std::move(u).value();
                        });
        if (diff->parsed())
            return fold(*a, reporter,
                        [](const ResourceSet& x,
                           const ResourceSet& y) -> std::optional<ResourceSet> {
                            return x.without(y);
                        });
        if (intersect->parsed())
            return fold(*a, reporter,
                        [](const ResourceSet& x,
                           const ResourceSet& y) -> std::optional<ResourceSet> {
                            return x.intersected(y);
                        });
        int status = exit_ok;
        if (remap->parsed()) {
            auto all = read_all(a->inputs, a->common, reporter, status);
            if (!all)
                return status;
            std::string out;
            for (const auto& r : *all)
                out += to_json_text(to_json_value(r.remapped()), a->common.pretty);
            return write_output(out, reporter);
        }
        if (rerank->parsed()) {
            auto hosts = Hostlist::parse(a->rerank_hosts);
            if (!hosts)
                return reporter.usage(Code::usage_option_value,
                                      "'" + a->rerank_hosts +
                                          "' is not a hostlist: " + hosts.error().message);
            auto all = read_all(a->inputs, a->common, reporter, status);
            if (!all)
                return status;
            std::string out;
            for (const auto& r : *all) {
                auto reranked = r.reranked(*hosts);
                if (const int s = reporter.report(reranked.diagnostics()); s != exit_ok)
                    return s;
                out += to_json_text(to_json_value(reranked.value()), a->common.pretty);
            }
            return write_output(out, reporter);
        }
        if (set_property->parsed())
            return run_set_property(*a, reporter);
        return exit_usage;
    };
    return Command{app, run};
}

} // namespace jobspec::cli
