// compile_shape: the shape pipeline, syntax -> lower -> sema.
#include <jobspec/shape.hpp>

#include "lower/shape_lowering.hpp"
#include "sema/canonical_resources.hpp"
#include "syntax/shape_parser.hpp"

namespace jobspec {

Result<ResourceList> compile_shape(std::string_view text, const ShapeOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto ast = syntax::parse_shape(text, options.limits, diagnostics);
    if (!ast) {
        diagnostics.sort_by_position();
        return Result<ResourceList>(std::move(diagnostics));
    }
    ResourceList resources = lower::lower_shape(*ast, options.default_label, diagnostics);
    sema::check_resources(resources, "", diagnostics);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<ResourceList>(std::move(diagnostics));
    return {std::move(resources), std::move(diagnostics)};
}

} // namespace jobspec
