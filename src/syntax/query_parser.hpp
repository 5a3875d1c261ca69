// Parsing RFC 35 constraint queries into their AST.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/parse_observer.hpp"

namespace jobspec::syntax {

/// A query as written: a term, or and/or/not over nodes (and and or already flattened
/// over chains like "a b c" and "a|b|c").
struct QueryNode {
    enum class Kind : std::uint8_t { term, and_, or_, not_ };
    Kind kind = Kind::term;
    /// The operator; empty when none was written (the default operator applies).
    std::string op;
    SourceRange op_range;
    /// The operand, without its quotes.
    std::string operand;
    SourceRange operand_range;
    bool quoted = false;
    std::vector<QueryNode> children;
    SourceRange range;
};

/// A query's AST, and whether syntax errors were reported on the way: then the AST holds
/// only the terms that parsed (see QueryAstBuilder).
struct ParsedQuery {
    QueryNode ast;
    bool recovered = false;
};

/// Parses a query: checks the input size, lexes, runs the generated parser with our
/// error strategy and builds the AST. Every syntax error the parser can recover from is
/// reported, and the AST of what parsed is returned all the same. Returns nothing when
/// the input is too long or deep, the lexer stopped, the parse was cancelled after too
/// many errors, or no term parsed at all.
/// An `observer` watches the lexing and the parse (the grammar debugger's way in).
std::optional<ParsedQuery> parse_query(std::string_view text, const Limits& limits,
                                       Diagnostics& diagnostics,
                                       ParseObserver* observer = nullptr);

/// How a ConstraintQuery token type reads in messages.
std::string describe_query_token(std::size_t type);

} // namespace jobspec::syntax
