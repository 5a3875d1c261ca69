// RFC 26's scheme rules, as the canonical pass and parse_dependency check them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/dependency_model.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

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

} // namespace jobspec
