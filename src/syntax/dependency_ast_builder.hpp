// Parse tree -> dependency URI AST: one method per grammar rule.
#pragma once

#include <string>

#include <jobspec/diagnostic.hpp>

#include "Dependency.h"
#include "syntax/dependency_parser.hpp"

namespace jobspec::syntax {

/// Converts a parse without syntax errors into the AST of a URI, reading only the
/// grammar's labels (filled with or without a parse tree), copying text and ranges out
/// and decoding %XX escapes. Reports dependency.percent-escape and
/// dependency.invalid-utf8. A URI is short and flat, so its parse stops at the first
/// syntax error and there is nothing to build after one.
class DependencyAstBuilder {
public:
    explicit DependencyAstBuilder(Diagnostics& diagnostics) : diags_(diagnostics) {}

    DependencyAst dependency(grammar::Dependency::DependencyContext& ctx);

private:
    using G = grammar::Dependency;

    DependencyAst::Option param(G::ParamContext& ctx);
    /// An option's key or value: %XX decoded, '+' a space.
    std::string decoded(antlr4::Token& token);

    Diagnostics& diags_;
};

} // namespace jobspec::syntax
