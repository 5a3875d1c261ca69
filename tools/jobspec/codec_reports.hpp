// How the set commands (idset, hostlist, R) report a malformed idset or hostlist given as
// an option's value (as a usage error: as the input, its own diagnostics are reported),
// and a set too large to spell out.
#pragma once

#include <cstdint>
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

/// The most ids or hosts a command spells out one by one: the most a flux-core idset
/// holds. Past it, hours of output would follow, so the command refuses at once.
constexpr std::uint64_t max_spelled_out = UINT32_MAX - 1;

/// `count` `things`, more than `limit`, refused: limit.expansion. Returns exit_invalid.
inline int report_too_many(std::uint64_t count, std::string_view things, Reporter& reporter,
                           std::uint64_t limit = max_spelled_out) {
    return reporter.report(Code::limit_expansion,
                           fmt::format("{} {} to spell out one by one; at most {}", count,
                                       things, limit),
                           "count them, or give a part of the set");
}

} // namespace jobspec::cli
