// The documents an editor holds and `jobspec --fix` repairs: a batch script (its
// #flux: directives), a jobspec in YAML or JSON, a shape file. One door to check any of
// them, with every diagnostic located in the document's own text.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::cli {

enum class DocumentKind { batch_script, jobspec, shape };

/// The kind of a document by its file name (*.shape; *.yaml, *.yml, *.json; *.sh and
/// other scripts), else by its text (a "#!" or "#flux:" line: a batch script; "{",
/// "version:" or "resources:": a jobspec); nothing when neither says.
std::optional<DocumentKind> document_kind(std::string_view name, std::string_view text);

/// Every diagnostic of `text` as `jobspec compile --batch`, `jobspec validate` or
/// `jobspec shape` reports it, sorted by position. Ranges and fixes are into `text`
/// where the problem is in it (a directive's option value is found in its line);
/// a problem elsewhere (a file the script names) keeps its own source. A text over the
/// limits gets limit.* diagnostics, never more memory.
Diagnostics check_document(DocumentKind kind, std::string_view text, const Limits& limits,
                           Dialect dialect = Dialect::rfc);

} // namespace jobspec::cli
