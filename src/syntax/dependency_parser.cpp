// The one place that wires the dependency token source, the generated parser and our
// error strategy together, and turns the parse tree into the AST.
#include "syntax/dependency_parser.hpp"
#include <jobspec/text.hpp>
#include "support/input_limit.hpp"

#include <memory>

#include <antlr4-runtime.h>

#include "Dependency.h"
#include "support/utf8.hpp"
#include "syntax/dependency_lexer.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/run_parser.hpp"

namespace jobspec::syntax {

namespace {

using G = grammar::Dependency;

int hex_value(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// A TEXT token's text with %XX decoded; reports bad escapes and invalid UTF-8.
std::string decoded(antlr4::Token& token, Diagnostics& d) {
    const SourceRange at = token_range(token);
    const std::string raw = token.getText();
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '%') {
            out += raw[i];
            continue;
        }
        const int hi = i + 1 < raw.size() ? hex_value(raw[i + 1]) : -1;
        const int lo = i + 2 < raw.size() ? hex_value(raw[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            const auto begin = at.begin + static_cast<std::uint32_t>(i);
            d.add(Code::dependency_percent_escape, "'%' must be followed by two hex digits",
                  Location{SourceRange{begin, std::min(at.end, begin + 3)}, {}},
                  "write a literal '%' as %25");
            return out;
        }
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    if (find_invalid_utf8(out) != std::string::npos)
        d.add(Code::dependency_invalid_utf8, "text is not valid UTF-8 once %XX is decoded",
              Location{at, {}});
    return out;
}

/// The option of a param context: key=TEXT equals=EQUALS value=TEXT?.
DependencyAst::Option option(G::ParamContext& ctx, Diagnostics& d) {
    DependencyAst::Option option;
    option.key = decoded(*ctx.key, d);
    option.key_range = token_range(*ctx.key);
    if (ctx.value != nullptr) {
        option.value = decoded(*ctx.value, d);
        option.value_range = token_range(*ctx.value);
    } else {
        const SourceRange at = token_range(*ctx.equals);
        option.value_range = SourceRange{at.end, at.end};
    }
    return option;
}

/// The AST of a parse without syntax errors, from the grammar's labels:
/// scheme=NAME (colon=COLON value=TEXT?)? (QUESTION options=query)? EOF.
DependencyAst build_ast(G::DependencyContext& tree, Diagnostics& d) {
    DependencyAst ast;
    ast.scheme = tree.scheme->getText();
    ast.scheme_range = token_range(*tree.scheme);
    if (tree.value != nullptr) {
        ast.value = decoded(*tree.value, d);
        ast.value_range = token_range(*tree.value);
    } else if (tree.colon != nullptr) {
        const SourceRange at = token_range(*tree.colon);
        ast.value = std::string();
        ast.value_range = SourceRange{at.end, at.end};
    }
    if (tree.options != nullptr)
        for (auto* param : tree.options->params)
            ast.options.push_back(option(*param, d));
    return ast;
}

} // namespace

std::string describe_dependency_token(std::size_t type) {
    switch (type) {
    case G::NAME:
        return "a scheme";
    case G::COLON:
        return "':'";
    case G::TEXT:
        return "a name or value";
    case G::QUESTION:
        return "'?'";
    case G::EQUALS:
        return "'='";
    case G::AMP:
        return "'&'";
    case G::SEMI:
        return "';'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<DependencyAst> parse_dependency_uri(std::string_view text, const Limits& limits,
                                                  Diagnostics& diagnostics,
                                                  ParseObserver* observer) {
    if (!support::within_input_limit(text, limits, "dependency", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    DependencyTokenSource source(text, diagnostics);
    // A URI is short and flat: the first syntax error says it all, the rest would cascade.
    return run_parser(source, diagnostics, errors_before,
                      std::make_shared<ErrorStrategy>(diagnostics, Code::dependency_syntax,
                                                      describe_dependency_token, 1),
                      observer, ParseTree::labels_only, &G::dependency,
                      [&](G::DependencyContext& tree) { return build_ast(tree, diagnostics); });
}

} // namespace jobspec::syntax
