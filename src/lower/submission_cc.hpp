// flux submit's --cc and --bcc: the jobspec built is the first id's, with "{cc}" in the
// command and the option values replaced by that id.
#pragma once

#include <cstdint>
#include <optional>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::lower {

/// Replaces "{cc}" and "{cc:WIDTH}" ("{cc:05}" pads with zeros) by the first id of --cc
/// or --bcc in the command and every option value flux substitutes into (the option
/// table's, syntax::for_each_cc_value); "{{" and "}}" stay. The id, or none without
/// --cc/--bcc. Nothing, with submit.value, for both options, an idset that is not one
/// or another replacement field.
std::optional<std::optional<std::uint64_t>> apply_cc(SubmitOptions& options,
                                                     Diagnostics& diagnostics);

} // namespace jobspec::lower
