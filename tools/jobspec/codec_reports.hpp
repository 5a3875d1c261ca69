// How the set commands (idset, hostlist, R) report a malformed idset or hostlist: as its
// own diagnostic when it is the input, as a usage error when it is an option's value.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "cli_support.hpp"

namespace jobspec::cli {

/// An idset or hostlist argument that does not parse (its idset.* or hostlist.*
/// diagnostics), with a caret into `text`. Returns the exit status (exit_invalid).
inline int report_codec_error(const Diagnostics& diagnostics, std::string_view text,
                              Reporter& reporter) {
    Diagnostics d = diagnostics;
    return reporter.report(d, text);
}

/// A value of `option` that is not `what` (usage.option-value, with the first of the
/// value's diagnostics). Returns exit_usage.
inline int report_option_value(const char* option, const char* what, std::string_view value,
                               const Diagnostics& diagnostics, Reporter& reporter) {
    const std::string reason = diagnostics.empty() ? "" : diagnostics.begin()->message;
    return reporter.usage(Code::usage_option_value,
                          fmt::format("{} '{}' is not {}: {}", option, value, what, reason));
}

} // namespace jobspec::cli
