// The values of flux submission options that become one JSON value each.
#pragma once

#include <optional>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::lower {

/// A --dependency or --taskmap URI as flux reads it: {"scheme", "value", query keys...};
/// `what` names the option in the error ("dependency", "taskmap").
std::optional<boost::json::object> submission_uri(const std::string& text, std::string_view what,
                                                  Diagnostics& diagnostics);

/// A --begin-time: now, +FSD / -FSD, or a date and clock time in the local time zone.
/// Seconds since the epoch, rounded to microseconds.
std::optional<double> begin_time(const std::string& text, double now, Diagnostics& diagnostics);

/// shell.options.signal from --signal [SIG][@TIME]; nothing for an empty value.
std::optional<boost::json::object> signal_option(const std::string& text,
                                                 Diagnostics& diagnostics);

/// A -S/-o value: JSON when it parses (NaN and Infinity too), else the text.
boost::json::value setting_value(const std::string& text);

/// Sets the dotted `path` in `object`, making objects on the way (empty parts kept).
/// False, with submit.value, when a part on the way is not an object.
bool set_dotted(boost::json::object& object, const std::string& path, boost::json::value value,
                Diagnostics& diagnostics);

/// files.NAME for --add-file [NAME[:PERMS]=]ARG; the name and the entry.
std::optional<std::pair<std::string, boost::json::object>>
add_file_entry(const std::string& text, Diagnostics& diagnostics);

} // namespace jobspec::lower
