#include "lower/submission_sources.hpp"

#include <algorithm>

namespace jobspec::lower {

void SubmissionSources::set(std::string pointer, std::shared_ptr<const SourceText> source) {
    std::erase_if(sources_, [&](const SubmissionSource& s) {
        return s.pointer == pointer || s.pointer.rfind(pointer + "/", 0) == 0;
    });
    if (source)
        sources_.push_back({std::move(pointer), std::move(source)});
}

void SubmissionSources::attach(const Diagnostics& found, Diagnostics& into) const {
    for (Diagnostic d : found) {
        if (d.location.range.known() && !d.location.source) {
            const std::string& at = d.location.pointer;
            for (auto s = sources_.rbegin(); s != sources_.rend(); ++s)
                if (at == s->pointer || at.rfind(s->pointer + "/", 0) == 0) {
                    d.location.source = s->source;
                    break;
                }
            if (!d.location.source)
                d.location.range = {};
        }
        into.add(std::move(d));
    }
}

std::shared_ptr<const SourceText> option_text(std::string_view option, std::string_view text) {
    return std::make_shared<const SourceText>(SourceText{std::string(option), std::string(text)});
}

void attach_to_value(std::string_view option, std::string_view text, const Diagnostics& found,
                     Diagnostics& into) {
    Diagnostics located(found.size() + 1);
    for (Diagnostic d : found) {
        if (!d.location.range.known() && !d.location.source && text.size() < SourceRange::unknown)
            d.location.range = SourceRange{0, static_cast<std::uint32_t>(text.size())};
        located.add(std::move(d));
    }
    into.append(located, option_text(option, text));
}

} // namespace jobspec::lower
