#include "r_command.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include <unistd.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <fmt/format.h>

#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_set.hpp>

#include "codec_reports.hpp"

namespace jobspec::cli {

namespace {

struct RArgs {
    CommonOptions common;
    std::vector<std::string> inputs;
    // encode
    std::optional<std::string> ranks;
    std::optional<std::string> cores;
    std::optional<std::string> gpus;
    std::optional<std::string> hosts;
    std::vector<std::string> properties;
    bool local = false;
    std::string xml;
    // decode
    bool short_form = false;
    bool nodelist = false;
    bool ranks_only = false;
    std::optional<std::string> count;
    std::optional<std::string> include;
    std::optional<std::string> exclude;
    std::optional<std::string> with_properties;
    // rerank, set-property
    std::string rerank_hosts;
    std::vector<std::string> specs;
    // parse-config
    std::string config_path;
};

/// Every R document in the inputs (files, or standard input for "-"), one after another,
/// as `flux R` reads its standard input. The one place the R commands read input.
std::optional<std::vector<ResourceSet>> read_all(const std::vector<std::string>& inputs,
                                                 const CommonOptions& common, Reporter& reporter,
                                                 int& status) {
    std::vector<ResourceSet> out;
    for (const auto& input : inputs) {
        const auto text = reporter.read(input, common.limits, status);
        if (!text)
            return std::nullopt;
        auto sets = read_resource_sets(*text, common.limits);
        if (status = std::max(status, reporter.report(sets.diagnostics(), *text, input));
            status != exit_ok)
            return std::nullopt;
        for (auto& r : std::move(sets).value())
            out.push_back(std::move(r));
    }
    return out;
}

/// At least `least` R documents from the inputs, or nothing (reported, `status` raised).
std::optional<std::vector<ResourceSet>> read_at_least(std::size_t least, const char* command,
                                                      const RArgs& a, Reporter& reporter,
                                                      int& status) {
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (all && all->size() < least) {
        status = std::max(
            status,
            reporter.report(Code::R_document_count,
                            fmt::format("{} needs {} R document{}, the input has {}", command,
                                        least == 1 ? "an" : fmt::format("at least {}", least),
                                        least == 1 ? "" : "s", all->size())));
        return std::nullopt;
    }
    return all;
}

/// The union of all R in the inputs (`flux R` decode, remap, rerank and set-property).
/// One document is kept whole; a union of several has no nslots, starttime or expiration.
std::optional<ResourceSet> read_union(const char* command, const RArgs& a, Reporter& reporter,
                                      int& status) {
    auto all = read_at_least(1, command, a, reporter, status);
    if (!all)
        return std::nullopt;
    ResourceSet out = std::move(all->front());
    for (std::size_t i = 1; i < all->size(); ++i)
        out = out.united((*all)[i]);
    return out;
}

int print(const ResourceSet& r, const CommonOptions& common, Reporter& reporter) {
    return write_output(to_json_text(to_json_value(r), common.pretty), reporter);
}

/// flux-core's nslots, starttime and expiration are lost by the filters that copy R
/// (--include, --properties); --exclude keeps them. Done here to give the same R.
void forget_allocation(ResourceSet& r) {
    r.nslots.reset();
    r.starttime = 0;
    r.expiration = 0;
}

/// "NAME" or "NAME:RANKS" (all of `all` when RANKS is left out) added to `r`.
int set_property(ResourceSet& r, const std::string& spec, const IdSet& all, const char* option,
                 Reporter& reporter) {
    const auto colon = spec.rfind(':');
    const std::string name = spec.substr(0, colon);
    IdSet ranks = all;
    if (colon != std::string::npos) {
        auto parsed = IdSet::parse(std::string_view(spec).substr(colon + 1));
        if (!parsed)
            return report_option_value(option, "NAME[:RANKS] with RANKS an idset", spec,
                                       parsed.diagnostics(), reporter);
        ranks = std::move(parsed).value();
    }
    if (!ResourceSet::valid_property_name(name))
        return reporter.report(
            Code::R_property_name,
            fmt::format("'{}' is not a property name (UTF-8, none of ! & ' \" ^ ` | ( ))", name));
    if (!r.set_property(name, ranks))
        return reporter.report(Code::R_property_ranks,
                               fmt::format("property '{}' names ranks {} that R does not have",
                                           name, ranks.without(all).format()));
    return exit_ok;
}

/// The most ranks `R encode` names after this host, one name each, without -H.
constexpr std::uint64_t max_unnamed_ranks = std::uint64_t{1} << 20;

/// -r's `ranks` are too many to name each after this host (without -H): reported.
int too_many_unnamed(const std::string& value, std::uint64_t ranks, Reporter& reporter) {
    Diagnostics d;
    d.add(Code::limit_expansion,
          fmt::format("without -H each of the {} ranks is named after this host, one name "
                      "each; at most {} are",
                      ranks, max_unnamed_ranks),
          Location(SourceRange{0, static_cast<std::uint32_t>(value.size())}),
          "give the hosts with -H (node[0-N] costs the same for any N)");
    return reporter.report(d, value, "-r");
}

/// -H, or this machine's host name once per rank (as flux-core does without -H).
std::optional<Hostlist> encode_hosts(const RArgs& a, std::uint64_t ranks, Reporter& reporter) {
    if (a.hosts) {
        auto hosts = Hostlist::parse(*a.hosts);
        if (!hosts) {
            report_option_value("-H", "a hostlist", *a.hosts, hosts.diagnostics(), reporter);
            return std::nullopt;
        }
        return std::move(hosts).value();
    }
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0)
        name = {'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};
    Hostlist hosts;
    for (std::uint64_t i = 0; i < ranks; ++i)
        hosts.append(std::string_view(name.data()));
    return hosts;
}

int run_encode(const RArgs& a, Reporter& reporter) {
    if (a.local || !a.xml.empty())
        return reporter.usage(Code::usage_option_value,
                              "--local and --xml read hardware topology (hwloc), which jobspec "
                              "does not; give -c and -g");
    const auto idset_of = [&](const char* option,
                              const std::optional<std::string>& value) -> std::optional<IdSet> {
        auto parsed = IdSet::parse(value.value_or(""));
        if (!parsed) {
            report_option_value(option, "an idset", *value, parsed.diagnostics(), reporter);
            return std::nullopt;
        }
        return std::move(parsed).value();
    };
    // Without -c and -g each rank gets core 0.
    const bool no_children = a.cores.value_or("").empty() && a.gpus.value_or("").empty();
    auto cores = no_children ? IdSet::range(0, 0) : idset_of("-c", a.cores);
    auto gpus = idset_of("-g", a.gpus);
    if (!cores || !gpus)
        return exit_usage;
    // Without -r, the ranks are 0..n-1 for the n hosts of -H, or rank 0.
    std::optional<IdSet> ranks;
    std::optional<Hostlist> hosts;
    if (a.ranks) {
        if (!(ranks = idset_of("-r", a.ranks)))
            return exit_usage;
        if (!a.hosts && ranks->count() > max_unnamed_ranks)
            return too_many_unnamed(*a.ranks, ranks->count(), reporter);
        if (!(hosts = encode_hosts(a, ranks->count(), reporter)))
            return exit_usage;
    } else {
        if (!(hosts = encode_hosts(a, 1, reporter)))
            return exit_usage;
        ranks = hosts->empty() ? IdSet{} : IdSet::range(0, hosts->count() - 1);
    }
    ResourceSet r;
    r.add(*ranks, *cores, *gpus);
    if (!r.set_nodelist(*hosts))
        return reporter.report(
            Code::R_nodelist_count,
            fmt::format("-H names {} hosts for {} ranks", hosts->count(), r.count_ranks()));
    const IdSet all = r.ranks();
    for (const auto& spec : a.properties)
        if (const int status = set_property(r, spec, all, "-p", reporter); status != exit_ok)
            return status;
    return print(r, a.common, reporter);
}

/// The ranks of an --include or --exclude value: an idset, or a hostlist of R's hosts.
std::optional<IdSet> targets(const ResourceSet& r, const char* option, const std::string& spec,
                             Reporter& reporter) {
    auto ids = IdSet::parse(spec);
    if (ids)
        return std::move(ids).value();
    if (auto hosts = Hostlist::parse(spec))
        return r.ranks_of(hosts.value());
    report_option_value(option, "an idset or a hostlist", spec, ids.diagnostics(), reporter);
    return std::nullopt;
}

/// The ranks with every property of a comma-separated list, "^name" for without.
std::optional<IdSet> with_properties(const ResourceSet& r, const std::string& list,
                                     Reporter& reporter, int& status) {
    boost::json::array names;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start)
            names.emplace_back(std::string_view(list).substr(start, comma - start));
        start = comma + 1;
    }
    auto constraint = constraint_from_json(boost::json::object{{"properties", std::move(names)}});
    if (!constraint.ok()) {
        status = reporter.report(constraint.diagnostics(), list);
        return std::nullopt;
    }
    auto matched = constraint.value().match(r);
    if (!matched.ok()) {
        status = reporter.report(matched.diagnostics(), list);
        return std::nullopt;
    }
    return std::move(matched).value();
}

int run_decode(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto r = read_union("decode", a, reporter, status);
    if (!r)
        return status;
    // Filters in flux-core's order: properties, include, exclude.
    if (a.with_properties) {
        const auto keep = with_properties(*r, *a.with_properties, reporter, status);
        if (!keep)
            return status;
        *r = r->filtered(*keep);
        forget_allocation(*r);
    }
    if (a.include) {
        const auto keep = targets(*r, "--include", *a.include, reporter);
        if (!keep)
            return exit_usage;
        *r = r->filtered(*keep);
        forget_allocation(*r);
    }
    if (a.exclude) {
        const auto drop = targets(*r, "--exclude", *a.exclude, reporter);
        if (!drop)
            return exit_usage;
        *r = r->filtered(r->ranks().without(*drop));
    }
    // Each asked-for line, in flux-core's order; R itself when none is asked for.
    std::string out;
    if (a.short_form)
        out += r->summary() + "\n";
    if (a.nodelist)
        out += r->nodelist().encode() + "\n";
    if (a.ranks_only)
        out += r->ranks().format() + "\n";
    if (a.count) {
        const std::uint64_t n = *a.count == "node"   ? r->count_ranks()
                                : *a.count == "core" ? r->count_cores()
                                : *a.count == "gpu"  ? r->count_gpus()
                                                     : 0; // R has no other resources
        out += std::to_string(n) + "\n";
    }
    if (out.empty())
        out = to_json_text(to_json_value(*r), a.common.pretty);
    return write_output(out, reporter);
}

int run_info(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto all = read_at_least(1, "info", a, reporter, status);
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

int run_verify(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto all = read_all(a.inputs, a.common, reporter, status);
    if (!all)
        return status;
    if (all->size() != 2)
        return reporter.report(
            Code::R_document_count,
            fmt::format("verify needs 2 R documents (what a rank should have, then what it "
                        "has), the input has {}",
                        all->size()));
    Diagnostics d = (*all)[0].verify((*all)[1]);
    return reporter.report(d);
}

/// Folds the inputs' R left to right with `op` (diff, intersect: at least two).
template <class Op>
int fold(const char* command, std::size_t least, const RArgs& a, Reporter& reporter, Op op) {
    int status = exit_ok;
    auto all = read_at_least(least, command, a, reporter, status);
    if (!all)
        return status;
    ResourceSet result = std::move(all->front());
    for (std::size_t i = 1; i < all->size(); ++i) {
        auto next = op(result, (*all)[i]);
        if (!next)
            return exit_invalid;
        result = std::move(*next);
    }
    return print(result, a.common, reporter);
}

int run_append(const RArgs& a, Reporter& reporter) {
    return fold("append", 1, a, reporter,
                [&](const ResourceSet& x, const ResourceSet& y) -> std::optional<ResourceSet> {
                    auto both = x.appended(y);
                    if (reporter.report(both.diagnostics()) != exit_ok)
                        return std::nullopt;
                    return std::move(both).value();
                });
}

int run_rerank(const RArgs& a, Reporter& reporter) {
    auto hosts = Hostlist::parse(a.rerank_hosts);
    if (!hosts)
        return report_option_value("HOSTLIST", "a hostlist", a.rerank_hosts, hosts.diagnostics(),
                                   reporter);
    int status = exit_ok;
    auto r = read_union("rerank", a, reporter, status);
    if (!r)
        return status;
    auto reranked = r->reranked(hosts.value());
    if (const int s = reporter.report(reranked.diagnostics()); s != exit_ok)
        return s;
    return print(reranked.value(), a.common, reporter);
}

int run_set_property(const RArgs& a, Reporter& reporter) {
    int status = exit_ok;
    auto r = read_union("set-property", a, reporter, status);
    if (!r)
        return status;
    const IdSet all = r->ranks();
    for (const auto& spec : a.specs)
        if (const int s = set_property(*r, spec, all, "PROPERTY", reporter); s != exit_ok)
            return s;
    return print(*r, a.common, reporter);
}

/// `flux R parse-config PATH`: R from the [resource] table of Flux's configuration.
int run_parse_config(const RArgs& a, Reporter& reporter) {
    auto r = read_resource_config_at(a.config_path, a.common.limits);
    if (const int s = reporter.outcome(r); s != exit_ok)
        return s;
    return print(r.value(), a.common, reporter);
}

} // namespace

Command add_r_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<RArgs>();
    CLI::App* app =
        parent.add_subcommand("R", "Read, check, write and combine resource sets (RFC 20 R)");
    app->require_subcommand(1);
    const auto inputs = [&](CLI::App* sub) {
        sub->add_option("R", a->inputs,
                        "R files; - (the default) reads standard input, several documents one "
                        "after another")
            ->default_str("-");
        add_common_options(*sub, a->common, reporter);
    };

    CLI::App* encode = app->add_subcommand("encode", "Write R: ranks with the same cores and gpus");
    encode->add_option("-r,--ranks", a->ranks, "Ranks (idset); default 0..n-1 for the -H hosts");
    encode->add_option("-c,--cores", a->cores, "Cores of each rank (idset); default 0");
    encode->add_option("-g,--gpus", a->gpus, "GPUs of each rank (idset); default none");
    encode->add_option("-H,--hosts", a->hosts,
                       "Host names, one per rank (hostlist); default this host's name");
    encode
        ->add_option("-p,--property", a->properties,
                     "NAME[:RANKS]: a property for RANKS (default all ranks); repeatable")
        ->allow_extra_args(false);
    encode->add_flag("-l,--local", a->local, "(flux-core: cores and gpus from hwloc; refused)");
    encode->add_option("-f,--xml", a->xml, "(flux-core: hwloc XML; refused)");
    add_common_options(*encode, a->common, reporter);

    CLI::App* decode =
        app->add_subcommand("decode", "The union of all R read, checked, printed whole or in part");
    inputs(decode);
    decode->add_flag("-s,--short", a->short_form, "One line: rank[0-3]/core[0-47],gpu[0-7]");
    decode->add_flag("-n,--nodelist", a->nodelist, "The hosts, as one hostlist");
    decode->add_flag("-r,--ranks", a->ranks_only, "The ranks, as one idset");
    decode->add_option("-c,--count", a->count, "How many of TYPE: node, core or gpu");
    decode->add_option("-i,--include", a->include, "Only these ranks (idset) or hosts (hostlist)");
    decode->add_option("-x,--exclude", a->exclude, "Not these ranks (idset) or hosts (hostlist)");
    decode->add_option("-p,--properties", a->with_properties,
                       "Only ranks with all of these properties (a,b; ^c for without c)");

    CLI::App* info = app->add_subcommand("info", "Summarize R: groups, counts, hosts, properties");
    inputs(info);
    CLI::App* verify = app->add_subcommand(
        "verify", "Check a rank's R as found (second) against the R it should have (first)");
    inputs(verify);
    CLI::App* append =
        app->add_subcommand("append", "Union of R that share no core or gpu of any rank");
    append->alias("union");
    inputs(append);
    CLI::App* diff = app->add_subcommand("diff", "The first R without the resources of the others");
    inputs(diff);
    CLI::App* intersect = app->add_subcommand("intersect", "Resources that every R has");
    inputs(intersect);
    CLI::App* remap = app->add_subcommand(
        "remap", "The union of all R, ranks renumbered from 0 and each rank's cores from 0");
    inputs(remap);
    CLI::App* rerank = app->add_subcommand(
        "rerank", "The union of all R, ranks renumbered by their host's position in HOSTLIST");
    rerank->add_option("HOSTLIST", a->rerank_hosts, "Every host of R, in the new rank order")
        ->required();
    inputs(rerank);
    CLI::App* set_property = app->add_subcommand(
        "set-property", "The union of all R on standard input, with properties added");
    set_property
        ->add_option("PROPERTY", a->specs, "NAME[:RANKS]: a property for RANKS (default all)")
        ->required();
    add_common_options(*set_property, a->common, reporter);

    CLI::App* parse_config = app->add_subcommand(
        "parse-config", "R from the [resource] table of Flux's configuration (resource.config)");
    parse_config
        ->add_option("PATH", a->config_path,
                     "A config directory (its *.toml files, merged in name order) or one file "
                     "(TOML, or JSON when it ends in .json)")
        ->required();
    add_common_options(*parse_config, a->common, reporter);

    app->footer(R"(Examples:
  jobspec R encode -r 0-3 -c 0-47 -g 0-7 -H node[186-189]
  jobspec R encode -H node[0-3] -p ssd | jobspec R decode -s
  cat a.json b.json | jobspec R decode --properties 'bigmem,^ssd' --count core
  cat expected.json found.json | jobspec R verify
  jobspec R parse-config /etc/flux/system/conf.d

Exit status: 0 success, 1 invalid R (or verify finds a resource missing), 2 usage error.)");

    const auto run = [a, &reporter, encode, decode, info, verify, append, diff, intersect, remap,
                      rerank, set_property, parse_config]() -> int {
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
            return run_append(*a, reporter);
        if (diff->parsed())
            return fold("diff", 2, *a, reporter, [](const ResourceSet& x, const ResourceSet& y) {
                return std::optional<ResourceSet>(x.without(y));
            });
        if (intersect->parsed())
            return fold("intersect", 2, *a, reporter,
                        [](const ResourceSet& x, const ResourceSet& y) {
                            return std::optional<ResourceSet>(x.intersected(y));
                        });
        if (remap->parsed()) {
            int status = exit_ok;
            auto r = read_union("remap", *a, reporter, status);
            return r ? print(r->remapped(), a->common, reporter) : status;
        }
        if (rerank->parsed())
            return run_rerank(*a, reporter);
        if (set_property->parsed())
            return run_set_property(*a, reporter);
        if (parse_config->parsed())
            return run_parse_config(*a, reporter);
        return exit_usage;
    };
    return Command{app, run};
}

} // namespace jobspec::cli
