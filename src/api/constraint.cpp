// The constraint entry points: RFC 35 queries and RFC 31 JSON, syntax -> lower.
#include <jobspec/constraint.hpp>

#include "lower/constraint_lowering.hpp"
#include "lower/query_lowering.hpp"
#include "sema/size_limits.hpp"
#include "syntax/document_tree.hpp"
#include "syntax/query_parser.hpp"

namespace jobspec {

namespace {

/// A Result from a value and the diagnostics found making it.
Result<Constraint> result(Constraint c, Diagnostics diagnostics) {
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Constraint>(std::move(diagnostics));
    return {std::move(c), std::move(diagnostics)};
}

} // namespace

Result<Constraint> parse_constraint_query(std::string_view query, const QueryOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    // After syntax errors the terms that parsed are still checked: each finding is about
    // one term as written, so none can be caused by what recovery dropped.
    auto parsed = syntax::parse_query(query, options.limits, diagnostics);
    if (!parsed) {
        diagnostics.sort_by_position();
        return Result<Constraint>(std::move(diagnostics));
    }
    Constraint c = lower::lower_query(parsed->ast, options, diagnostics);
    const SourceRange whole{0, static_cast<std::uint32_t>(query.size())};
    sema::check_constraint_terms(c, options.limits.max_constraint_terms, Location{whole},
                                 diagnostics);
    return result(std::move(c), std::move(diagnostics));
}

Result<Constraint> constraint_from_json(const boost::json::value& value, std::string_view pointer) {
    Diagnostics diagnostics;
    support::JsonPointer at(pointer);
    Constraint c = lower::lower_constraint(syntax::DocNode::from_json(value), at, diagnostics);
    return result(std::move(c), std::move(diagnostics));
}

Result<Constraint> read_constraint(std::string_view text, const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    const syntax::JsonDialect dialect{"constraint", "the constraint",
                                      "the constraint is not valid JSON", Code::constraint_type,
                                      Code::constraint_type, Code::constraint_type};
    auto root = syntax::read_json(text, limits, diagnostics, dialect);
    if (!root)
        return Result<Constraint>(std::move(diagnostics));
    support::JsonPointer at;
    Constraint c = lower::lower_constraint(*root, at, diagnostics);
    sema::check_constraint_terms(c, limits.max_constraint_terms, Location{root->range},
                                 diagnostics);
    return result(std::move(c), std::move(diagnostics));
}

bool valid_constraint_operand(std::string_view op, std::string_view value) {
    return (op == "properties" || op == "hostlist" || op == "ranks") &&
           !lower::operand_problem(op, value);
}

} // namespace jobspec
