// Which option's text each part of a submission's jobspec was read from, so that a
// diagnostic about that part points into the option with a caret.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <jobspec/diagnostic.hpp>

namespace jobspec::lower {

/// An option's text that part of the jobspec was read from: a diagnostic at `pointer`
/// or under it whose range is known points into `source`.
struct SubmissionSource {
    std::string pointer;
    std::shared_ptr<const SourceText> source;
};

/// The sources of a jobspec's parts, latest last.
class SubmissionSources {
public:
    /// What is at `pointer` (and under it) now comes from `source`; nothing: from no text.
    void set(std::string pointer, std::shared_ptr<const SourceText> source);

    /// Adds `found` to `into`, each diagnostic with a known range and no source of its
    /// own pointing into the latest source at or above its pointer (its range is dropped
    /// when there is none: it would point into text the caller does not have).
    void attach(const Diagnostics& found, Diagnostics& into) const;

private:
    std::vector<SubmissionSource> sources_;
};

/// An option's value as the text a diagnostic shows ("--requires", "ssd and (").
std::shared_ptr<const SourceText> option_text(std::string_view option, std::string_view text);

/// Adds `found`, the findings in option `option`'s value `text`, to `into`: each pointing
/// into the value, over all of it when it has no range of its own (so that one from a
/// batch script's directive lands on its line and column).
void attach_to_value(std::string_view option, std::string_view text, const Diagnostics& found,
                     Diagnostics& into);

} // namespace jobspec::lower
