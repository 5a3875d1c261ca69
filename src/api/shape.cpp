// compile_shape: the shape pipeline, syntax -> lower -> sema.
#include <jobspec/shape.hpp>

#include "lower/shape_lowering.hpp"
#include "sema/canonical_resources.hpp"
#include "sema/size_limits.hpp"
#include "syntax/shape_parser.hpp"

namespace jobspec {

namespace {

/// Whether a diagnostic about the parts of a shape that parsed can be trusted after
/// syntax errors: those about one count, key or value as written. Those about the
/// structure (empty lists, slots and their labels and contents) may only be there
/// because error recovery dropped something, so they are left out.
bool local_to_what_parsed(Code code) {
    switch (code) {
    case Code::jobspec_slot_label_missing:
    case Code::jobspec_slot_without_with:
    case Code::jobspec_duplicate_label:
    case Code::jobspec_empty_with:
    case Code::shape_slot_label_first:
    case Code::shape_empty_list:
        return false;
    default:
        return true;
    }
}

} // namespace

Result<ResourceList> compile_shape(std::string_view text, const ShapeOptions& options) {
    Diagnostics diagnostics(options.limits.max_diagnostics);
    auto parsed = syntax::parse_shape(text, options.limits, diagnostics);
    if (!parsed) {
        diagnostics.sort_by_position();
        return Result<ResourceList>(std::move(diagnostics));
    }
    // After syntax errors, the semantic checks still run over what parsed, so one run
    // reports every problem, but only their local findings are kept.
    Diagnostics checks(options.limits.max_diagnostics);
    ResourceList resources = lower::lower_shape(parsed->ast, options.default_label, checks);
    sema::check_resources(resources, "", checks);
    sema::check_vertex_count(resources, options.limits.max_vertices, "", checks);
    for (const auto& d : checks)
        if (!parsed->recovered || local_to_what_parsed(d.code))
            diagnostics.add(d);
    diagnostics.sort_by_position();
    if (diagnostics.has_errors())
        return Result<ResourceList>(std::move(diagnostics));
    return {std::move(resources), std::move(diagnostics)};
}

} // namespace jobspec
