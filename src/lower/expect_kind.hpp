// The one type check of document lowering: is this node what the RFC says it must be?
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "support/json_pointer.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// Whether `n` has `kind` (an integer of either sign for Kind::integer, any number for
/// Kind::real); when not, reports jobspec.key-type "WHAT must be KIND, not KIND" at the
/// node's range and `at`.
bool expect_kind(const syntax::DocNode& n, syntax::DocNode::Kind kind, std::string_view what,
                 const support::JsonPointer& at, Diagnostics& diagnostics);

} // namespace jobspec::lower
