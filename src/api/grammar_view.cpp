// inspect_grammar: the grammar debugger's look at the parsers, and jobspec's own verdict.
#include <jobspec/grammar_view.hpp>

#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

#include "emit/debug_text.hpp"
#include "lower/shape_lowering.hpp"
#include "sema/canonical_resources.hpp"
#include "syntax/ast_printer.hpp"
#include "syntax/grammar_debug.hpp"

namespace jobspec {

namespace {

/// The shape pipeline pass by pass: each pass's diagnostics, and the IR after lowering.
std::string shape_passes(const syntax::DebugParse& parse, const Limits& limits) {
    std::string out = "parse: " + diagnostics_text(parse.diagnostics);
    const auto* ast = std::get_if<syntax::ShapeAst>(&parse.ast);
    if (ast == nullptr)
        return out + "(no IR: the parse failed)\n";
    Diagnostics lowering(limits.max_diagnostics);
    ResourceList resources = lower::lower_shape(*ast, ShapeOptions{}.default_label, lowering);
    lowering.sort_by_position();
    out += "lower: " + diagnostics_text(lowering);
    out += emit::ir_text(resources, false);
    if (lowering.has_errors())
        return out + "(the canonical pass does not run after lowering errors)\n";
    Diagnostics canonical(limits.max_diagnostics);
    sema::check_resources(resources, "", canonical);
    canonical.sort_by_position();
    return out + "canonical: " + diagnostics_text(canonical);
}

/// What jobspec itself reports for the text (the same entry points, the same codes).
Diagnostics verdict(Grammar grammar, std::string_view text, const Limits& limits) {
    switch (grammar) {
    case Grammar::shape: {
        ShapeOptions options;
        options.limits = limits;
        return compile_shape(text, options).diagnostics();
    }
    case Grammar::dependency: {
        DependencyOptions options;
        options.limits = limits;
        return parse_dependency(text, options).diagnostics();
    }
    case Grammar::directives:
        return parse_directives(text).diagnostics();
    case Grammar::constraint:
        break;
    }
    QueryOptions options;
    options.limits = limits;
    return parse_constraint_query(text, options).diagnostics();
}

} // namespace

GrammarInspection inspect_grammar(Grammar grammar, std::string_view text,
                                  const InspectOptions& options) {
    syntax::DebugParse parse = syntax::debug_parse(grammar, text, options);
    GrammarInspection out;
    out.ast = syntax::ast_text(parse.ast, false);
    out.ast_ranges = syntax::ast_text(parse.ast, true);
    if (grammar == Grammar::shape)
        out.passes = shape_passes(parse, options.limits);
    out.tokens = std::move(parse.tokens);
    out.tree = std::move(parse.tree);
    out.trace = std::move(parse.trace);
    out.reports = std::move(parse.reports);
    out.parse_diagnostics = std::move(parse.diagnostics);
    out.diagnostics = verdict(grammar, text, options.limits);
    return out;
}

} // namespace jobspec
