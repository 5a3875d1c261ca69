// flux's -S and -o settings on the model: KEY[=VALUE] read once, and set at the path
// flux sets in its dictionary, each value lowered there by the attribute's type.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/submit_options.hpp>

#include "lower/submission_sources.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// A -S or -o setting: KEY, its value read into a tree, and the text it was read from
/// (nothing for a value an API gave, or none written).
struct Setting {
    std::string key;
    syntax::DocNode value;
    /// KEY=VALUE as given, which the value's ranges and key_range are into (a file's
    /// text for ^KEY=FILE).
    std::shared_ptr<const SourceText> source;
    /// The last dotted part of KEY in `source`, when it is there.
    SourceRange key_range = {};
};

/// -S/-o KEY[=VALUE] as flux reads it: VALUE is JSON when it parses (NaN and Infinity
/// too), else the text; no VALUE is 1; ^KEY=FILE is the JSON in FILE, read through
/// context.read_file. `option` names the option in messages ("setattr"). Nothing, with
/// submit.value, submit.file or limit.input-size, when FILE cannot be read or is not JSON,
/// or limit.depth when the key and value nest too deep (within_depth).
std::optional<Setting> read_setting(const std::string& text, std::string_view option,
                                    const SubmitContext& context, Diagnostics& diagnostics);

/// Whether the setting nests within limits.effective_depth(): the key's parts under
/// attributes.system (or shell.options) and its value's depth together; else limit.depth
/// naming `option`. What read_setting checks, for settings given as values too.
bool within_depth(const Setting& setting, std::string_view option, const Limits& limits,
                  Diagnostics& diagnostics);

/// flux's -S KEY=VALUE on the model: KEY ".K" is attributes.K, "user.*" and "system.*"
/// are under attributes, any other key under attributes.system; the path is set as
/// flux's dotted set does in its dictionary. A typed system attribute is lowered by its
/// type, a path into job, shell, files or user is set inside that dictionary (the part
/// set is checked), an environment variable is set in its place, a constraint's operator
/// replaced. False, with the lowering's diagnostics (pointing into the setting's source)
/// or submit.value (a part on the way is not a dictionary).
bool set_attribute(Jobspec& jobspec, SubmissionSources& sources, Setting setting,
                   Diagnostics& diagnostics);

/// attributes.system.environment.NAME = `value` (lowered as an environment variable's),
/// in its place or at the end.
bool set_environment_variable(Jobspec& jobspec, SubmissionSources& sources, const std::string& name,
                              syntax::DocNode value,
                              const std::shared_ptr<const SourceText>& source,
                              Diagnostics& diagnostics);

} // namespace jobspec::lower
