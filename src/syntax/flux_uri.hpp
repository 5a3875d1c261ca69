// The URIs of flux's --dependency and --taskmap, read as flux-core 0.88's front end reads
// them (Python's urlparse and parse_qs), into the RFC 26 URI's syntax tree.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "syntax/dependency_parser.hpp"

namespace jobspec::syntax {

/// "scheme:value?key=val&key=val#fragment" as flux reads it: tabs and line breaks are
/// dropped, a missing ':' is added at the end ("singleton"), the fragment is dropped,
/// options are split at '&' only, %XX and '+' decoded, and an option with no '=' or no
/// value is dropped. The scheme as written (lowering puts it in lower case); options in
/// order, "scheme" and "value" keys too (flux lets them replace the URI's own). Ranges
/// are byte offsets into `text`, unknown when a dropped character shifted them. Nothing,
/// with submit.value "Invalid WHAT URI", when the scheme is not a letter followed by
/// letters, digits, '+', '-' or '.'.
std::optional<DependencyAst> read_flux_uri(std::string_view text, std::string_view what,
                                           Diagnostics& diagnostics);

} // namespace jobspec::syntax
