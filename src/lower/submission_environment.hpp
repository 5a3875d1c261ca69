// The environment and resource limits a flux submission carries (--env rules, --rlimit).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::lower {

/// Applies the environment rules in order to `environment` (the starting copy): "-PAT"
/// removes, "^FILE" applies FILE's lines as rules, "NAME=VALUE" sets (with $NAME
/// substitution; a value with "{{" goes to `expand` for the job shell instead), "PAT"
/// copies the caller's matching variables. PAT is a glob, or "/REGEX" matched at the
/// start of the name. False, with submit.value or submit.file, on a bad rule.
bool apply_environment_rules(const std::vector<std::string>& rules, const SubmitContext& context,
                             boost::json::object& environment, boost::json::object& expand,
                             Diagnostics& diagnostics);

/// shell.options.rlimit for the --rlimit rules after flux's default ones (the caller's
/// soft limits except memlock, ofile, msgqueue, nice, rtprio, rttime, sigpending).
/// Nothing (with submit.value) on a bad rule.
std::optional<boost::json::object> rlimit_options(const std::vector<std::string>& rules,
                                                  const SubmitContext& context,
                                                  Diagnostics& diagnostics);

/// Whether `name` matches a flux pattern: "/REGEX" (at the start of the name), else a
/// shell glob over the whole name. Nothing (with submit.value) for a bad regex.
std::optional<bool> pattern_matches(const std::string& pattern, const std::string& name,
                                    Diagnostics& diagnostics);

} // namespace jobspec::lower
