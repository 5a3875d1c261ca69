// The documents an editor holds, `jobspec fix` repairs and the playground compiles: a
// batch script (its #flux: directives), a jobspec in YAML or JSON, a shape file. One door
// says which kind a document is, and one checks any of them, with every diagnostic
// located in the document's own text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec {

enum class DocumentKind : std::uint8_t { batch_script, jobspec, shape };

/// The kind of a document. `language`, an editor's language id or a name the user gave,
/// decides when it names one ("batch", "sh", "bash", "shellscript"; "jobspec", "yaml",
/// "json"; "shape", "jobspec-shape"). Else the file name does (*.shape; *.yaml, *.yml,
/// *.json; *.sh, *.bash, *.batch, *.flux), else the text (a "#!" or "#flux:" line: a
/// batch script; "{", "---", "version:" or "resources:" first: a jobspec). Nothing when
/// none of them says.
JOBSPEC_API std::optional<DocumentKind> document_kind(std::string_view name, std::string_view text,
                                                      std::string_view language = {});

/// How a document is checked.
struct DocumentOptions {
    Limits limits;
    Dialect dialect = Dialect::rfc;
    /// The world a batch script is read in (working directory, resource limits, the
    /// files its options name: --add-file, --env-file, --resources-json...), its limits
    /// and dialect replaced by these; null: the caller's own (current_submit_context()).
    /// A server checking other people's scripts passes one whose read_file is unset, so
    /// that no option can read its files.
    const SubmitContext* context = nullptr;
};

/// A document checked as `jobspec compile --batch`, `jobspec validate` or `jobspec shape`
/// check it: its value as JSON (the jobspec `flux batch` would submit, the jobspec, the
/// shape's resources) and every diagnostic, sorted by position. Ranges and fixes are into
/// `text` wherever the problem is in it (a directive's option value included); one
/// elsewhere (a file the script names) keeps its own source. Fails with the diagnostics
/// when there is an error; a text over the limits gets limit.* diagnostics, never more
/// memory.
JOBSPEC_API Result<boost::json::value> check_document(DocumentKind kind, std::string_view text,
                                                      const DocumentOptions& options = {});

/// A key of a jobspec document as its reader read it, for an editor's hover and
/// completion: the key and where it is, and where its value is, with the value's text
/// when it is a string or an integer (a string's text without its quotes). `value_range`
/// is unknown where the reader does not know it (JSON lists and dictionaries); a null
/// value (`type:` with nothing after it) is empty and at the end of the key's line.
struct DocumentKey {
    std::string key;
    SourceRange key_range;
    SourceRange value_range;
    std::optional<std::string> value;
    bool null = false;
};

/// Every key of a jobspec document (YAML or JSON), depth first in the document's order.
/// Empty when the text is not a document within `limits`.
JOBSPEC_API std::vector<DocumentKey> document_keys(std::string_view text,
                                                   const Limits& limits = {});

} // namespace jobspec
