// parse_dependency: the dependency URI pipeline, syntax -> model -> scheme rules.
#include <jobspec/dependency.hpp>

#include "syntax/dependency_parser.hpp"

namespace jobspec {

Result<Dependency> parse_dependency(std::string_view uri, const DependencyOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto ast = syntax::parse_dependency_uri(uri, options.limits, diagnostics);
    if (!ast)
        return Result<Dependency>(std::move(diagnostics));
    Dependency d;
    d.scheme = std::move(ast->scheme);
    d.scheme_range = ast->scheme_range;
    d.value = ast->value.value_or(std::string());
    d.value_range =
        ast->value ? ast->value_range : SourceRange{ast->scheme_range.end, ast->scheme_range.end};
    for (auto& o : ast->options)
        d.options.push_back(
            {std::move(o.key), boost::json::value(std::move(o.value)), o.key_range, o.value_range});
    check_dependency(d, DependencyContext::command_line, options.allow_unknown_scheme, "",
                     diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Dependency>(std::move(diagnostics));
    return {std::move(d), std::move(diagnostics)};
}

} // namespace jobspec
