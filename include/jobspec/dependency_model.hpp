// RFC 26 dependencies: their value, and the dependency event rules of one job.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

/// An option of a dependency ("type=out"): a string in a URI, any JSON value in a
/// dependency object (RFC 26's "additional key-value pairs").
struct JOBSPEC_API DependencyOption {
    std::string key;
    boost::json::value value;
    SourceRange key_range;
    SourceRange value_range;

    /// The value when it is a string, else "".
    std::string_view text() const noexcept;
};

/// An RFC 26 dependency: scheme, value and the scheme's options in the order written.
/// Ranges are byte offsets into the URI (unknown when it came from elsewhere).
struct JOBSPEC_API Dependency {
    std::string scheme;
    std::string value;
    std::vector<DependencyOption> options;
    SourceRange scheme_range;
    SourceRange value_range;

    /// The option with that key, or nullptr.
    const DependencyOption* option(std::string_view key) const noexcept;
};

/// RFC 26's dependency event rules for one job: dependency-add and dependency-remove
/// events match by description; a job may leave DEPEND when every added dependency has
/// been removed.
class JOBSPEC_API DependencySet {
public:
    enum class AddResult : std::uint8_t {
        added,     ///< a new dependency: post the event
        duplicate, ///< already added and not yet satisfied: do not post, not an error
        error,     ///< already satisfied: a duplicate add is a plugin error
    };
    enum class RemoveResult : std::uint8_t {
        removed,   ///< satisfied now
        unknown,   ///< no dependency with that description was added: an error
        duplicate, ///< already removed: an error
    };

    AddResult add(std::string_view description);
    RemoveResult remove(std::string_view description);
    /// Whether no added dependency is still unsatisfied (true when none were added).
    bool may_leave_depend() const noexcept { return outstanding_ == 0; }
    std::size_t outstanding() const noexcept { return outstanding_; }

private:
    /// Each description added, and whether it has been removed (satisfied).
    std::map<std::string, bool, std::less<>> satisfied_;
    std::size_t outstanding_ = 0;
};

} // namespace jobspec
