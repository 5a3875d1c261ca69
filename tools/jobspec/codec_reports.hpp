// How the set commands (idset, hostlist, R) report a malformed idset or hostlist: as its
// own diagnostic when it is the input, as a usage error when it is an option's value.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "cli_support.hpp"

namespace jobspec::cli {

/// An idset or hostlist argument that does not parse (idset.*, hostlist.*), with a caret
/// into `text`. Returns the exit status (exit_invalid).
template <class Error>
int report_codec_error(const Error& error, std::string_view text, Reporter& reporter) {
    Diagnostics d;
    d.add(to_diagnostic(error));
    return reporter.report(d, text);
}

/// A value of `option` that is not `what` (usage.option-value). Returns exit_usage.
template <class Error>
int report_option_value(const char* option, const char* what, std::string_view value,
                        const Error& error, Reporter& reporter) {
    return reporter.usage(Code::usage_option_value,
                          fmt::format("{} '{}' is not {}: {}", option, value, what, error.message));
}

} // namespace jobspec::cli
