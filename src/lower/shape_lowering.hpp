// Shape AST -> ResourceGraph IR (DESIGN.md "Shape lowering rules").
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_graph.hpp>

#include "syntax/shape_ast.hpp"

namespace jobspec::lower {

/// Gives a shape its RFC 14 meaning: decodes counts (integer, RFC 22 idset, RFC 45 range),
/// labels the only slot `default_label` when it has none, reads a slot's first braces entry
/// as its label, turns `x` into `exclusive` and `key`/`+key`/`-key` into true/true/false,
/// and converts dictionary values to JSON (unquoted words become numbers, booleans, null
/// or strings). Reports shape.* and limit.integer errors and carries on with placeholders,
/// so one run reports every problem; the result is meaningful only without errors.
ResourceList lower_shape(const syntax::ShapeAst& ast, std::string_view default_label,
                         Diagnostics& diagnostics);

} // namespace jobspec::lower
