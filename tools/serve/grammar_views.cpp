// The one file of the server that reaches into the library's internal headers (the grammar
// debugger in src/syntax and src/emit); when they get a public home (<jobspec/...>), only
// this file changes.
#include "grammar_views.hpp"

#include "emit/debug_text.hpp"
#include "syntax/grammar_debug.hpp"

namespace jobspec::serve {

namespace {

syntax::Grammar internal(Grammar grammar) {
    switch (grammar) {
    case Grammar::dependency:
        return syntax::Grammar::dependency;
    case Grammar::constraint:
        return syntax::Grammar::constraint;
    case Grammar::shape:
        break;
    }
    return syntax::Grammar::shape;
}

} // namespace

GrammarViews grammar_views(Grammar grammar, std::string_view text, const Limits& limits) {
    syntax::DebugOptions options;
    options.limits = limits;
    const syntax::DebugParse parse = syntax::debug_parse(internal(grammar), text, options);
    GrammarViews views;
    views.tokens.reserve(parse.tokens.size());
    for (const auto& t : parse.tokens)
        views.tokens.push_back(Token{t.index, t.type, t.text, t.line, t.column, t.range});
    if (parse.tree)
        views.tree_dot = emit::tree_dot(*parse.tree);
    return views;
}

} // namespace jobspec::serve
