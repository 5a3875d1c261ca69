// A flux submission command line (the words after `flux run`) -> SubmitOptions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::syntax {

/// Reads `words` into `options` the way flux-core 0.88's argument parser does (POSIX
/// split at the first non-option word, no abbreviations, clustered short options).
/// Reports usage.* diagnostics for what flux rejects with exit status 2. With the
/// words' `origins` (a directive's, Directive::origins), each value read from a word
/// with a place in the script is noted in options.value_origins.
void read_submit_arguments(const std::vector<std::string>& words, SubmitOptions& options,
                           Diagnostics& diagnostics,
                           const std::vector<std::vector<std::uint32_t>>* origins = nullptr);

/// Sets the option of options.command whose long name is `name` (without "--") as
/// `--name=value` on its command line would (`--name` when there is no value; an
/// optional value takes its default). Reports usage.unknown-option, usage.option-value
/// (a flag given a value, a count flux's parser refuses) or usage.missing-argument.
void set_submit_option(SubmitOptions& options, std::string_view name,
                       const std::optional<std::string>& value, Diagnostics& diagnostics);

/// See jobspec::submit_option_span.
std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                               SubmitCommand command);

/// An edit of one option value: false stops the walk.
using ValueEdit = std::function<bool(std::string&)>;

/// Calls `edit` once on every value of `options` that flux's --cc substitutes "{cc}"
/// into (each option the table marks, a field shared by several options once; not the
/// command's arguments), in table order. False when an edit returned false.
bool for_each_cc_value(SubmitOptions& options, const ValueEdit& edit);

/// The long option of `command` that `name` (without "--") is likely a misspelling of,
/// e.g. "nodes" for "nodse"; nothing when `name` is an option or none is close.
std::optional<std::string_view> misspelt_long_option(std::string_view name,
                                                     SubmitCommand command);

/// See jobspec::submit_option_usages.
std::vector<std::string> submit_option_usages(SubmitCommand command);

} // namespace jobspec::syntax
