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

/// Parses a query; returns nothing when a query.* or limit.* error was added.
/// An `observer` watches the lexing and the parse (the grammar debugger's way in).
std::optional<QueryNode> parse_query(std::string_view text, const Limits& limits,
                                     Diagnostics& diagnostics, ParseObserver* observer = nullptr);

/// How a ConstraintQuery token type reads in messages.
std::string describe_query_token(std::size_t type);

} // namespace jobspec::syntax
