// RFC 26 dependencies, as URI syntax or document tree -> Dependency.
#pragma once

#include <jobspec/dependency_model.hpp>

#include "syntax/dependency_parser.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// The Dependency a dictionary holds, with the ranges it was read at: scheme, value
/// (strings; the caller has checked their presence and type) and every other key as an
/// option, its value as the JSON written (RFC 26: "additional key-value pairs").
Dependency dependency_from_object(const syntax::DocNode& object);

/// The Dependency a parsed URI holds, with its ranges in the URI; without a value
/// ("singleton") the value is empty at the end of the scheme.
Dependency dependency_from_uri(syntax::DependencyAst ast);

} // namespace jobspec::lower
