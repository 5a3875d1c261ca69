#include "constraint_command.hpp"

#include <algorithm>
#include <memory>

#include <boost/json/object.hpp>

#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

namespace jobspec::cli {

namespace {

struct ConstraintArgs {
    CommonOptions common;
    std::string query;
    std::string json;
    std::string match;
    std::string default_operator;
    bool short_form = false;
};

/// R from a file, reported under its name; nothing (reported) when it does not read.
std::optional<ResourceSet> read_r(const std::string& path, const CommonOptions& common,
                                  Reporter& out, int& status) {
    const auto text = out.read(path, common.limits, status);
    if (!text)
        return std::nullopt;
    auto r = read_resource_set(*text, common.limits);
    if (status = std::max(status, out.report(r.diagnostics(), *text, path)); status != exit_ok)
        return std::nullopt;
    return std::move(r).value();
}

int run_constraint(const ConstraintArgs& a, Reporter& out) {
    if (a.json.empty() == a.query.empty())
        return out.usage(a.json.empty() ? Code::usage_missing_argument : Code::usage_conflict,
                         "give a QUERY or --json FILE, one of them");
    int status = exit_ok;
    std::string source;
    Result<Constraint> constraint = Result<Constraint>(Diagnostics{});
    if (!a.json.empty()) {
        const auto text = out.read(a.json, a.common.limits, status);
        if (!text)
            return status;
        source = *text;
        constraint = read_constraint(source, a.common.limits);
    } else {
        const auto text = out.argument(a.query, a.common.limits, status);
        if (!text)
            return status;
        source = *text;
        QueryOptions options;
        if (!a.default_operator.empty())
            options.default_operator = a.default_operator;
        options.limits = a.common.limits;
        constraint = parse_constraint_query(source, options);
    }
    if (status = out.outcome(constraint, source, a.json); status != exit_ok)
        return status;
    if (a.match.empty())
        return write_output(to_json_text(to_json_value(constraint.value()), a.common.pretty), out);
    const auto r = read_r(a.match, a.common, out, status);
    if (!r)
        return status;
    auto matched = constraint.value().match(*r);
    if (status = out.outcome(matched); status != exit_ok)
        return status;
    const IdSet& ranks = matched.value();
    const Hostlist hosts = r->filtered(ranks).nodelist();
    if (a.short_form)
        return write_output(std::to_string(ranks.count()) + " of " +
                                std::to_string(r->count_ranks()) + " targets: rank " +
                                (ranks.empty() ? "none" : ranks.format()) +
                                (hosts.empty() ? "" : " (" + hosts.encode() + ")") + "\n",
                            out);
    boost::json::object o;
    o.emplace("ranks", ranks.format());
    o.emplace("hosts", hosts.encode());
    o.emplace("count", ranks.count());
    return write_output(to_json_text(o, a.common.pretty), out);
}

struct MatchArgs {
    CommonOptions common;
    std::string jobspec;
    std::string r;
    std::string free;
    std::string config;
    std::string queue;
    Dialect dialect = Dialect::rfc;
};

int run_match(const MatchArgs& a, Reporter& out) {
    int status = exit_ok;
    const auto text = out.read(a.jobspec, a.common.limits, status);
    if (!text)
        return status;
    const auto r = read_r(a.r, a.common, out, status);
    if (!r)
        return status;
    MatchOptions options;
    options.read.dialect = a.dialect;
    options.read.limits = a.common.limits;
    options.config = a.config;
    options.queue = a.queue;
    if (!a.free.empty()) {
        options.free = read_r(a.free, a.common, out, status);
        if (!options.free)
            return status;
    }
    auto alloc = match_jobspec(*text, *r, options);
    if (status = out.outcome(alloc, *text, a.jobspec); status != exit_ok)
        return status;
    return write_output(to_json_text(to_json_value(alloc.value()), a.common.pretty), out);
}

} // namespace

Command add_constraint_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<ConstraintArgs>();
    CLI::App* app = parent.add_subcommand(
        "constraint", "Compile an RFC 35 constraint query to RFC 31 JSON, or match one against R");
    app->add_option("QUERY", a->query,
                    "The query, e.g. 'ssd and not host:foo[1-3]' (after -- if it starts with -); - "
                    "reads standard input");
    app->add_option("--json", a->json, "Read an RFC 31 constraint from FILE (- for stdin) instead");
    app->add_option("--match", a->match,
                    "Print the ranks and hosts of this R (a file) that satisfy it");
    app->add_flag("--short", a->short_form,
                  "With --match: one line, e.g. '4 of 16 targets: rank 0-3 (node[0-3])'");
    app->add_option(
        "--default-operator", a->default_operator,
        "Read the query in RFC 35's plain language with this default operator, any operator "
        "allowed (RFC 35's examples use name)");
    add_common_options(*app, a->common, reporter);
    add_constraint_limit_option(*app, a->common.limits);
    app->footer(R"(Query language (RFC 35) in the --requires dialect: a term is operator:operand
(properties by default, host/hosts for hostlist, rank for ranks); terms joined by
whitespace or & && and, | || or; not and -term negate; parentheses group; 'quotes' keep
spaces. Properties split on ',' and properties joined by AND become one term.

Examples:
  jobspec constraint 'ssd and not host:foo[1-3]'
  jobspec constraint --match r.json --short 'gpu|bigmem'
  jobspec constraint --default-operator name 'foo bar state:started'

Exit status: 0 success, 1 an invalid query, constraint or R, 2 usage error.)");
    return Command{app, [a, &reporter] { return run_constraint(*a, reporter); }};
}

Command add_match_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<MatchArgs>();
    CLI::App* app = parent.add_subcommand(
        "match", "Can a jobspec run on R? Print one allocation, or say why not");
    app->add_option("JOBSPEC", a->jobspec, "A jobspec (YAML or JSON); - reads standard input")
        ->required();
    app->add_option("R", a->r, "The resources (RFC 20 R JSON)")->required();
    app->add_option("--free", a->free,
                    "What of R is free now (R JSON): place the job there, and say whether it "
                    "is pending (fits R, not this) rather than unsatisfiable");
    app->add_option("--config", a->config,
                    "Flux's configuration (a directory of *.toml files, or one file): the job's "
                    "queue adds its requires and hosts (RFC 33)");
    app->add_option("--queue", a->queue,
                    "With --config: the queue the job is submitted to (default: the jobspec's "
                    "system.queue, else the configured default)")
        ->needs("--config");
    add_dialect_option(*app, a->dialect);
    add_common_options(*app, a->common, reporter);
    add_vertex_limit_option(*app, a->common.limits);
    add_constraint_limit_option(*app, a->common.limits);
    app->footer(
        R"(First fit, in rank order, over the nodes that satisfy the jobspec's constraints.
Each node vertex takes different nodes that hold what it contains (whole nodes when
exclusive); a task slot with no node is on one node, packed after the nodes. A node
count or an outer slot count that is a range or an idset takes as many as fit; other
counts take their least value (flux-core's scheduler's rule). Prints the allocation as
R (nslots set), or, when it cannot fit, the first requirement that fails, narrowing the
nodes level by level, and which nodes each constraint term removed. R version 1 has no
sockets or memory: a socket stands for what it holds (a match.unchecked warning),
memory is refused (match.unsupported).
With --free, what is free decides: a job that fits R but not it is pending (match.pending).
With --config, the job's queue applies as flux-core applies it: its requires are added to
the job's constraints, its hosts get the property +NAME which the job must have.
With --dialect fluxion, slots side by side are alternatives (Fluxion's or-slots: as many
as the last one's count, each of any shape), and each choice the jobspec's xor_slots stand
for is tried in Fluxion's order, the first that fits winning (versions to 9999; the task
slot unchecked).

Examples:
  jobspec compile -N4 -g1 --requires ssd -- app > job.json && jobspec match job.json r.json
  jobspec match --free free.json job.json r.json
  jobspec match --config /etc/flux/system/conf.d --queue debug job.json r.json

Exit status: 0 it fits, 1 it does not fit now or ever (or a document is invalid), 2 usage
error.)");
    return Command{app, [a, &reporter] { return run_match(*a, reporter); }};
}

} // namespace jobspec::cli
