// A flux submission command line (the words after `flux run`) -> SubmitOptions.
#pragma once

#include <string>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::syntax {

/// Reads `words` into `options` the way flux-core 0.88's argument parser does (POSIX
/// split at the first non-option word, no abbreviations, clustered short options).
/// Reports usage.* diagnostics for what flux rejects with exit status 2.
void read_submit_arguments(const std::vector<std::string>& words, SubmitOptions& options,
                           Diagnostics& diagnostics);

/// See jobspec::submit_option_span.
std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                               SubmitCommand command);

/// See jobspec::submit_option_usages.
std::vector<std::string> submit_option_usages(SubmitCommand command);

} // namespace jobspec::syntax
