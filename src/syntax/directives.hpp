// RFC 36 submission directives: the "#flux:" lines of a batch script -> argument vectors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

#include "syntax/parse_observer.hpp"

namespace jobspec::syntax {

/// Reads the directives of `script` (LF line ends) with grammar/Directives.g4 as
/// flux-core 0.88 does (see jobspec::parse_directives); stops at the first error,
/// reported as directive.*. An `observer` watches the lexing and the parse.
std::vector<Directive> read_directives(std::string_view script, Diagnostics& diagnostics,
                                       ParseObserver* observer = nullptr);

/// How a Directives token type reads in messages.
std::string describe_directive_token(std::size_t type);

} // namespace jobspec::syntax
