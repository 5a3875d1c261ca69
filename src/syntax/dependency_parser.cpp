// The one place that wires the dependency token source, the generated parser and our
// error strategy together, and turns the parse tree into the AST.
#include "syntax/dependency_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include "Dependency.h"
#include "support/utf8.hpp"
#include "syntax/dependency_lexer.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/run_parser.hpp"
#include "syntax/tree_child.hpp"

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
    if (support::find_invalid_utf8(out) != std::string::npos)
        d.add(Code::dependency_invalid_utf8, "text is not valid UTF-8 once %XX is decoded",
              Location{at, {}});
    return out;
}

/// The option "key=value" of a param context: TEXT EQUALS TEXT?.
DependencyAst::Option option(G::ParamContext& ctx, Diagnostics& d) {
    DependencyAst::Option option;
    const antlr4::Token* equals = nullptr;
    for (auto* node : ctx.children) {
        const auto c = tree_child(node);
        if (c.token_type() == G::EQUALS) {
            equals = c.token;
        } else if (c.token_type() == G::TEXT && equals == nullptr) {
            option.key = decoded(*c.token, d);
            option.key_range = token_range(*c.token);
        } else if (c.token_type() == G::TEXT) {
            option.value = decoded(*c.token, d);
            option.value_range = token_range(*c.token);
        }
    }
    if (!option.value_range.known() && equals != nullptr) {
        const SourceRange at = token_range(*equals);
        option.value_range = SourceRange{at.end, at.end};
    }
    return option;
}

/// The AST of a parse without syntax errors: NAME (COLON TEXT?)? (QUESTION query)? EOF.
DependencyAst build_ast(G::DependencyContext& tree, Diagnostics& d) {
    DependencyAst ast;
    const antlr4::Token* colon = nullptr;
    for (auto* node : tree.children) {
        const auto c = tree_child(node);
        switch (c.token_type()) {
        case G::NAME:
            ast.scheme = c.token->getText();
            ast.scheme_range = token_range(*c.token);
            break;
        case G::COLON:
            colon = c.token;
            break;
        case G::TEXT:
            ast.value = decoded(*c.token, d);
            ast.value_range = token_range(*c.token);
            break;
        default:
            if (c.rule_index() == G::RuleQuery)
                for (auto* param : c.rule->children)
                    if (const auto p = tree_child(param); p.rule_index() == G::RuleParam)
                        ast.options.push_back(option(static_cast<G::ParamContext&>(*p.rule), d));
            break;
        }
    }
    if (colon != nullptr && !ast.value) {
        const SourceRange at = token_range(*colon);
        ast.value = std::string();
        ast.value_range = SourceRange{at.end, at.end};
    }
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
    if (text.size() > limits.max_input_bytes) {
        diagnostics.add(Code::limit_input_size,
                        fmt::format("dependency is {} bytes long, more than the limit of {}",
                                    text.size(), limits.max_input_bytes),
                        Location{SourceRange{0, 0}, {}});
        return std::nullopt;
    }
    const std::size_t errors_before = diagnostics.error_count();
    DependencyTokenSource source(text, diagnostics);
    if (observer != nullptr)
        observer->lexed(source);
    if (source.fatal())
        return std::nullopt;
    // A URI is short and flat: the first syntax error says it all, the rest would cascade.
    auto strategy = std::make_shared<ErrorStrategy>(diagnostics, Code::dependency_syntax,
                                                    describe_dependency_token, 1);
    return run_parser(source, std::move(strategy), observer, ParseTree::build, &G::dependency,
                      [&](G::DependencyContext& tree) -> std::optional<DependencyAst> {
                          if (diagnostics.error_count() > errors_before)
                              return std::nullopt;
                          DependencyAst ast = build_ast(tree, diagnostics);
                          if (diagnostics.error_count() > errors_before)
                              return std::nullopt;
                          return ast;
                      });
}

} // namespace jobspec::syntax
