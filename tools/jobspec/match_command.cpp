#include "match_command.hpp"

#include <cstdint>
#include <memory>

#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>

#include "r_file.hpp"

namespace jobspec::cli {

namespace {

struct MatchArgs {
    CommonOptions common;
    std::string jobspec;
    std::string r;
    std::string free;
    std::string config;
    std::string queue;
    std::uint64_t max_steps = 0;
    Dialect dialect = Dialect::rfc;
};

int run_match(const MatchArgs& a, Reporter& out) {
    int status = exit_ok;
    const auto text = out.read(a.jobspec, a.common.limits, status);
    if (!text)
        return status;
    const auto r = read_r_file(a.r, a.common, out, status);
    if (!r)
        return status;
    MatchOptions options;
    options.read.dialect = a.dialect;
    options.read.limits = a.common.limits;
    options.config = a.config;
    options.queue = a.queue;
    if (a.max_steps > 0)
        options.max_steps = a.max_steps;
    if (!a.free.empty()) {
        options.free = read_r_file(a.free, a.common, out, status);
        if (!options.free)
            return status;
    }
    auto alloc = match_jobspec(*text, *r, options);
    if (status = out.outcome(alloc, *text, a.jobspec); status != exit_ok)
        return status;
    return write_output(to_json_text(to_json_value(alloc.value()), a.common.pretty), out);
}

} // namespace

Command add_match_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<MatchArgs>();
    CLI::App* app = parent.add_subcommand(
        "match", "Can a jobspec run on R? Print one allocation, or say why not");
    app->add_option("JOBSPEC", a->jobspec, "A jobspec (YAML or JSON); - reads standard input")
        ->required();
    app->add_option("R", a->r,
                    "The resources: RFC 20 R JSON, or Fluxion's resource graph (JGF, alone or "
                    "as R's scheduling key)")
        ->required();
    app->add_option("--free", a->free,
                    "What of R is free now (R JSON, or a graph): place the job there, and say "
                    "whether it is pending (fits R, not this) rather than unsatisfiable");
    app->add_option("--config", a->config,
                    "Flux's configuration (a directory of *.toml files, or one file): the job's "
                    "queue adds its requires and hosts (RFC 33)");
    app->add_option("--queue", a->queue,
                    "With --config: the queue the job is submitted to (default: the jobspec's "
                    "system.queue, else the configured default)")
        ->needs("--config");
    app->add_option("--max-steps", a->max_steps,
                    "The most steps the placement may take (each a small piece of the search); "
                    "one that would take more is not judged (match.budget). Default: no limit")
        ->check(CLI::PositiveNumber);
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
On Fluxion's resource graph (a JGF file, or R whose scheduling key is Fluxion's JGF) the
job is placed as Fluxion's traverser places it (docs/FLUXION.md): any level, sockets,
memory and storage with their sizes, properties on any vertex; a failure names the level
and the sums that fail ("per chassis: ... asked, ... there"), and the allocation is R
with the graph of what it takes in its scheduling key.
With --free, what is free decides: a job that fits R but not it is pending (match.pending).
With --max-steps, a placement that would take more steps stops and says so (match.budget),
as the Flux plugins bound each placement inside the job manager.
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
  jobspec match --dialect fluxion job.yaml graph.json

Exit status: 0 it fits, 1 it does not fit now or ever (or a document is invalid), 2 usage
error.)");
    return Command{app, [a, &reporter] { return run_match(*a, reporter); }};
}

} // namespace jobspec::cli
