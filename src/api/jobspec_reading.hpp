// Reading a jobspec from a document tree already read: the part of read_jobspec after the
// text, for a jobspec inside a larger document (an instance's state).
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/result.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::api {

/// The jobspec `root` holds, lowered and checked as read_jobspec does (diagnostics'
/// pointers from the jobspec's root); `text`, when given, is the text `root` was read from
/// (for fix-its). `diagnostics` are those reading it already found.
Result<Jobspec> jobspec_from_tree(const syntax::DocNode& root, std::string_view text,
                                  const ReadOptions& options, Diagnostics diagnostics);

} // namespace jobspec::api
