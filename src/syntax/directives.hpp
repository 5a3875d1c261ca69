// RFC 36 submission directives: the "#flux:" lines of a batch script -> argument vectors.
#pragma once

#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::syntax {

/// Reads the directives of `script` (LF line ends) as flux-core 0.88 does (see
/// jobspec::parse_directives); stops at the first error, reported as directive.*.
std::vector<Directive> read_directives(std::string_view script, Diagnostics& diagnostics);

} // namespace jobspec::syntax
