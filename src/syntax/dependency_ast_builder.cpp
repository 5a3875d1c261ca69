#include "syntax/dependency_ast_builder.hpp"

#include <algorithm>

#include <jobspec/text.hpp>

#include "support/chars.hpp"
#include "syntax/token_ranges.hpp"

namespace jobspec::syntax {

/// scheme=NAME (colon=COLON value=TEXT?)? (QUESTION options=query)? EOF
DependencyAst DependencyAstBuilder::dependency(G::DependencyContext& ctx) {
    DependencyAst ast;
    ast.scheme = ctx.scheme->getText();
    ast.scheme_range = token_range(*ctx.scheme);
    if (ctx.value != nullptr) {
        // The value is kept as written, as flux-core keeps a URI's path: decoding it
        // would make string:a%20b and flux's "a%20b" different names.
        ast.value = ctx.value->getText();
        ast.value_range = token_range(*ctx.value);
    } else if (ctx.colon != nullptr) {
        const SourceRange at = token_range(*ctx.colon);
        ast.value = std::string();
        ast.value_range = SourceRange{at.end, at.end};
    }
    if (ctx.options != nullptr)
        for (auto* p : ctx.options->params)
            ast.options.push_back(param(*p));
    return ast;
}

/// key=TEXT equals=EQUALS value=TEXT?
DependencyAst::Option DependencyAstBuilder::param(G::ParamContext& ctx) {
    DependencyAst::Option option;
    option.key = decoded(*ctx.key);
    option.key_range = token_range(*ctx.key);
    if (ctx.value != nullptr) {
        option.value = decoded(*ctx.value);
        option.value_range = token_range(*ctx.value);
    } else {
        const SourceRange at = token_range(*ctx.equals);
        option.value_range = SourceRange{at.end, at.end};
    }
    return option;
}

std::string DependencyAstBuilder::decoded(antlr4::Token& token) {
    const SourceRange at = token_range(token);
    const std::string raw = token.getText();
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '%') {
            // Options are form-encoded, as flux-core reads them (Python's parse_qs).
            out += raw[i] == '+' ? ' ' : raw[i];
            continue;
        }
        const int hi = i + 1 < raw.size() ? support::hex_digit(raw[i + 1]) : -1;
        const int lo = i + 2 < raw.size() ? support::hex_digit(raw[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            const auto begin = at.begin + static_cast<std::uint32_t>(i);
            diags_.add(Code::dependency_percent_escape, "'%' must be followed by two hex digits",
                       Location{SourceRange{begin, std::min(at.end, begin + 3)}, {}},
                       "write a literal '%' as %25");
            return out;
        }
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    if (find_invalid_utf8(out) != std::string::npos)
        diags_.add(Code::dependency_invalid_utf8, "text is not valid UTF-8 once %XX is decoded",
                   Location{at, {}});
    return out;
}

} // namespace jobspec::syntax
