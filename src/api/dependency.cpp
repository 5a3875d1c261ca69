// parse_dependency: the dependency URI pipeline, syntax -> lower -> scheme rules (sema).
#include <jobspec/dependency.hpp>

#include "lower/dependency_lowering.hpp"
#include "syntax/dependency_parser.hpp"

namespace jobspec {

Result<Dependency> parse_dependency(std::string_view uri, const DependencyOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto ast = syntax::parse_dependency_uri(uri, options.limits, diagnostics);
    if (!ast)
        return Result<Dependency>(std::move(diagnostics));
    Dependency d = lower::dependency_from_uri(std::move(*ast));
    check_dependency(d, DependencyContext::command_line, options.allow_unknown_scheme, "",
                     diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<Dependency>(std::move(diagnostics));
    return {std::move(d), std::move(diagnostics)};
}

} // namespace jobspec
