// RFC 26 job dependencies: the object, its URI form, scheme rules and event semantics.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

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

struct DependencyOptions {
    /// Accept schemes jobspec does not know (RFC 26 lets plugins add schemes).
    bool allow_unknown_scheme = false;
    Limits limits;
};

/// Parses an RFC 26 URI, "scheme:value[?key=val[&key=val...]]" with '&' or ';' between
/// options, and checks its scheme's rules (see check_dependency). As flux-core reads it:
/// the scheme in lower case, the value as written, the options' %XX escapes and '+'
/// decoded, a value Python reads as a number a number, a key given twice a list.
/// Example: "string:foo?type=out;scope=user" ->
/// {scheme "string", value "foo", options [type=out, scope=user]}.
JOBSPEC_API Result<Dependency> parse_dependency(std::string_view uri,
                                                const DependencyOptions& options = {});

/// How strictly check_dependency judges: a URI typed on a command line gets every rule as
/// an error; a dependency inside a jobspec document is lenient where RFC 26 plans for
/// growth (unknown schemes) and where RFC 14's own examples use placeholder job names
/// (values that are not FLUIDs), which are then warnings.
enum class DependencyContext : std::uint8_t { command_line, document };

/// The scheme rules: after (a deprecated alias of afterstart, with a warning), afterstart,
/// afterany, afterok, afternotok, afterexcept and fluid take a value that decodes as a
/// FLUID; begin-time takes a timestamp in seconds (a non-negative number); string and
/// fluid need type in|out|inout and scope user|global; singleton takes no value. Options
/// a scheme does not define are warnings. Diagnostics carry `pointer` and the ranges the
/// dependency has.
JOBSPEC_API void check_dependency(const Dependency& dependency, DependencyContext context,
                                  bool allow_unknown_scheme, std::string_view pointer,
                                  Diagnostics& diagnostics);

/// The schemes check_dependency knows, in RFC order.
JOBSPEC_API const std::vector<std::string_view>& known_schemes();

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
