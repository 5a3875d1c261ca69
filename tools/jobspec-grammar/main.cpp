// jobspec-grammar: see how jobspec reads a shape, a dependency URI, a constraint query or
// a batch script's RFC 36 directives.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <jobspec/grammar_view.hpp>
#include <jobspec/version.hpp>

#include "cli_support.hpp"
#include "graphviz.hpp"

namespace {

using namespace jobspec;
using namespace jobspec::cli;

struct Args {
    std::string grammar;
    /// Nothing when no INPUT was given ("" is an input: the empty text).
    std::optional<std::string> input;
    std::string file;
    bool tokens = false;
    bool tree = false;
    bool ast = false;
    bool ranges = false;
    bool ir = false;
    bool dot = false;
    std::string svg;
    bool trace = false;
    bool ambiguities = false;
    bool sll = false;
    CommonOptions common;
};

Grammar grammar_of(const std::string& name) {
    if (name == "dependency")
        return Grammar::dependency;
    if (name == "constraint")
        return Grammar::constraint;
    if (name == "directives")
        return Grammar::directives;
    return Grammar::shape;
}

/// The input: the argument, the file, or standard input; without trailing newlines when
/// it came from a file or a pipe. Nothing (reported, with `status` raised) when it cannot
/// be read.
std::optional<std::string> read_text(const Args& a, Reporter& reporter, int& status) {
    if (!a.file.empty() && a.input) {
        status = reporter.usage(Code::usage_conflict, "give INPUT or -f FILE, not both");
        return std::nullopt;
    }
    if (a.file.empty())
        return reporter.argument(a.input.value_or("-"), a.common.limits, status);
    auto text = reporter.read(a.file, a.common.limits, status, true);
    while (text && !text->empty() && (text->back() == '\n' || text->back() == '\r'))
        text->pop_back();
    return text;
}

/// Prints the views asked for, each under a "== name ==" header when there are several.
class Views {
public:
    explicit Views(std::size_t count) : headers_(count > 1) {}

    void add(const std::string& name, const std::string& text) {
        if (headers_)
            out_ += (out_.empty() ? "" : "\n") + ("== " + name + " ==\n");
        out_ += text;
    }
    const std::string& text() const noexcept { return out_; }

private:
    bool headers_;
    std::string out_;
};

std::string lines(const std::vector<std::string>& items, const char* none) {
    if (items.empty())
        return std::string(none) + "\n";
    std::string out;
    for (const auto& item : items)
        out += item + "\n";
    return out;
}

/// What SLL alone made of the text, next to what full LL (jobspec's parse) made of it.
std::string sll_view(const GrammarInspection& sll, const Diagnostics& full) {
    const bool sll_failed = sll.parse_diagnostics.has_errors();
    bool ll_failed = false;
    for (const auto& d : full)
        ll_failed = ll_failed || (d.severity == Severity::error &&
                                  d.code_name().find("syntax") != std::string_view::npos);
    if (!sll_failed)
        return "SLL prediction is enough for this input\n";
    if (ll_failed)
        return "SLL fails, as full LL does:\n" + diagnostics_text(sll.parse_diagnostics);
    return "SLL fails where full LL succeeds:\n" + diagnostics_text(sll.parse_diagnostics);
}

int run(Args& a, Reporter& reporter) {
    if (a.ir && a.grammar != "shape")
        return reporter.usage(
            Code::usage_conflict,
            "--ir is for shapes, the one grammar lowered to the ResourceGraph IR");
    int read_status = exit_ok;
    const auto text = read_text(a, reporter, read_status);
    if (!text)
        return read_status;
    InspectOptions options;
    options.trace = a.trace;
    options.ambiguities = a.ambiguities;
    options.sll = a.sll;
    options.limits = a.common.limits;
    GrammarInspection parse = inspect_grammar(grammar_of(a.grammar), *text, options);

    if (!(a.tokens || a.ast || a.ir || a.dot || a.trace || a.ambiguities || a.sll ||
          !a.svg.empty()))
        a.tree = true;
    const std::size_t count =
        a.tokens + a.tree + a.ast + a.ir + a.dot + a.trace + a.ambiguities + a.sll;
    Views views(count);
    const char* no_tree = "(no parse tree: the lexer stopped first)\n";
    if (a.tokens)
        views.add("tokens", tokens_text(parse.tokens));
    if (a.tree)
        views.add("tree", parse.tree ? tree_text(*parse.tree, a.ranges) : no_tree);
    if (a.ast) {
        const std::string& ast = a.ranges ? parse.ast_ranges : parse.ast;
        views.add("ast", ast.empty() ? "(no AST: the parse failed)\n" : ast);
    }
    if (a.ir)
        views.add("ir", parse.passes);
    if (a.dot)
        views.add("dot", parse.tree ? tree_dot(*parse.tree) : no_tree);
    if (a.trace)
        views.add("trace", lines(parse.trace, "(the parser did not run)"));
    if (a.ambiguities)
        views.add("reports", lines(parse.reports, "(no ambiguities, no full-context predictions)"));
    if (a.sll)
        views.add("sll", sll_view(parse, parse.diagnostics));

    int status = write_output(views.text(), reporter);
    const int reported = reporter.report(parse.diagnostics, *text, a.file);
    if (!a.svg.empty() && status == exit_ok) {
        if (!parse.tree)
            status = reporter.usage(Code::io_unwritable,
                                    "no parse tree to draw: the lexer stopped first");
        else
            status = write_svg(tree_dot(*parse.tree), a.svg, reporter);
    }
    return status != exit_ok ? status : reported;
}

} // namespace

int main(int argc, char** argv) {
    Args a;
    CLI::App app{"jobspec-grammar: see how jobspec reads a shape (RFC 46), a dependency URI "
                 "(RFC 26), a constraint query (RFC 35) or a batch script's directives "
                 "(RFC 36)",
                 "jobspec-grammar"};
    app.set_version_flag("--version", std::string("jobspec-grammar ") + version_string);
    app.add_option("GRAMMAR", a.grammar, "shape, dependency, constraint or directives")
        ->check(CLI::IsMember({"shape", "dependency", "constraint", "directives"}))
        ->required();
    app.add_option("INPUT", a.input,
                   "The text to parse (after -- if it starts with -); - or nothing reads "
                   "standard input");
    app.add_option("-f,--file", a.file, "Read the text from FILE");
    app.add_flag("--tokens", a.tokens, "The token stream: index, type, text, line:column");
    app.add_flag("--tree", a.tree, "The ANTLR parse tree, one node per line (the default view)");
    app.add_flag("--ast", a.ast, "jobspec's own AST, built from the parse tree");
    app.add_flag("--ranges", a.ranges, "With --tree and --ast: each node's byte range [begin,end)");
    app.add_flag("--ir", a.ir,
                 "Shapes: each pass's diagnostics and the ResourceGraph IR after lowering");
    app.add_flag("--dot", a.dot, "The parse tree as Graphviz DOT");
    app.add_option("--svg", a.svg, "Draw the parse tree into this SVG file (needs graphviz)");
    app.add_flag("--trace", a.trace,
                 "Rule entries and exits, tokens consumed, each prediction that needs more "
                 "than one token of lookahead, then per-decision statistics");
    app.add_flag("--ambiguities", a.ambiguities,
                 "ANTLR's diagnostic mode: report ambiguities and full-context predictions");
    app.add_flag("--sll", a.sll, "Parse with SLL prediction only and say whether it is enough");
    Reporter reporter("jobspec-grammar");
    add_report_options(app, reporter);
    add_limit_options(app, a.common.limits);
    app.footer(R"(Views print in the order above, under "== view ==" headers when there are
several. Problems are reported on stderr exactly as jobspec reports them.

Examples:
  jobspec-grammar shape --tokens 'slot=2{a}/core'
  jobspec-grammar shape --tree --ranges 'node/[socket;gpu]'
  jobspec-grammar dependency --ast 'string:x?type=out&scope=user'
  jobspec-grammar constraint --trace 'ssd and not host:foo[1-3]'
  jobspec-grammar directives --tokens -f job.sh
  jobspec-grammar shape --svg tree.svg 'slot=4/core=2'

Exit status: 0 the text is valid, 1 it is not, 2 usage error (or no graphviz for --svg).)");

    if (const auto status = parse_command_line(app, argc, argv, reporter))
        return reporter.finish(*status);
    return reporter.finish(run(a, reporter));
}
