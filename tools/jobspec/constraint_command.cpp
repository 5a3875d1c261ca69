#include "constraint_command.hpp"

#include "r_file.hpp"

#include <algorithm>
#include <memory>

#include <boost/json/object.hpp>

#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/text.hpp>
#include <jobspec/write_back.hpp>

namespace jobspec::cli {

namespace {

struct ConstraintArgs {
    CommonOptions common;
    std::string query;
    std::string json;
    std::string match;
    std::string default_operator;
    bool short_form = false;
    bool as_query = false;
};

int run_constraint(const ConstraintArgs& a, Reporter& out) {
    if (a.json.empty() == a.query.empty())
        return out.usage(a.json.empty() ? Code::usage_missing_argument : Code::usage_conflict,
                         "give a QUERY or --json FILE, one of them");
    if (a.as_query && !a.match.empty())
        return out.usage(Code::usage_conflict, "--query prints a query; --match matches one");
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
    if (a.as_query) {
        auto written = query_of(constraint.value());
        if (status = out.outcome(written, source, a.json); status != exit_ok)
            return status;
        // A query has no escapes: what a terminal would act on is shown as \x1b and <U+202E>.
        return write_output(visible_text(written.value().text) + "\n", out);
    }
    if (a.match.empty())
        return write_output(to_json_text(to_json_value(constraint.value()), a.common.pretty), out);
    const auto r = read_r_file(a.match, a.common, out, status);
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
    app->add_flag("--query", a->as_query,
                  "Print the query in the --requires dialect that says the constraint (one "
                  "line), instead of its JSON: the way back from --json. Characters a "
                  "terminal would act on are shown escaped (\\x1b)");
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
  jobspec constraint --query --json constraint.json   # RFC 31 -> 'ssd and not host:foo[1-3]'

Exit status: 0 success, 1 an invalid query, constraint or R, 2 usage error.)");
    return Command{app, [a, &reporter] { return run_constraint(*a, reporter); }};
}

} // namespace jobspec::cli
