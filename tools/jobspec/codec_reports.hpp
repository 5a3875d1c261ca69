// How the set commands (idset, hostlist, R) report a malformed idset or hostlist given as
// an option's value: as a usage error (as the input, its own diagnostics are reported).
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "cli_support.hpp"

namespace jobspec::cli {

/// A value of `option` that is not `what` (usage.option-value, with the first of the
/// value's diagnostics). Returns exit_usage.
inline int report_option_value(const char* option, const char* what, std::string_view value,
                               const Diagnostics& diagnostics, Reporter& reporter) {
    const std::string reason = diagnostics.empty() ? "" : diagnostics.begin()->message;
    return reporter.usage(Code::usage_option_value,
                          fmt::format("{} '{}' is not {}: {}", option, value, what, reason));
}

} // namespace jobspec::cli
