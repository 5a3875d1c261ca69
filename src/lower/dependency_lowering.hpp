// RFC 26 dependency objects, document tree -> Dependency.
#pragma once

#include <jobspec/dependency.hpp>

#include "syntax/document.hpp"

namespace jobspec::lower {

/// The Dependency a dictionary holds, with the ranges it was read at: scheme, value
/// (strings; the caller has checked their presence and type) and every other key as an
/// option, its value as the JSON written (RFC 26: "additional key-value pairs").
Dependency dependency_from_object(const syntax::DocNode& object);

} // namespace jobspec::lower
