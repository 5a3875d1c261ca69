// The fixes of a jobspec document's mistakes that one edit of its text makes valid, which
// only the text and its tree can say (where a key goes, how the document is written).
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// `found` with these fixes added:
/// - the only task names a slot label, and the document's one slot has none: the label,
///   written into that slot (fixes jobspec.unknown-slot and jobspec.slot-label-missing);
/// - a task count with both per_slot: 1 (flux's default) and total: per_slot removed
///   (fixes jobspec.task-count).
/// Diagnostics and their order are otherwise unchanged; the result is capped at `cap`, as
/// `found` was.
/// Nothing is walked or copied unless one of those codes is there: reading a valid
/// document pays nothing.
Diagnostics with_document_fixes(Diagnostics found, const syntax::DocNode& root,
                                std::string_view text, std::size_t cap);

} // namespace jobspec::lower
