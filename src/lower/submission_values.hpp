// The values of flux submission options that become one JSON value each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/submit_options.hpp>

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
boost::json::value setting_value(const std::string& text, const Limits& limits);

/// JSON text as a value, read by the one JSON reader (syntax::read_json) within
/// `limits`, a repeated key's last value kept as Python's json module keeps it. Nothing,
/// with the reader's diagnostics, when it is not JSON.
std::optional<boost::json::value> json_value(std::string_view text, const Limits& limits,
                                             Diagnostics& diagnostics);

/// How a file that cannot be read is reported, as flux words it where it reads one.
enum class FileError : std::uint8_t {
    errno_and_path, ///< "PREFIX[Errno 2] No such file or directory: 'PATH'"
    path,           ///< "PREFIXNo such file or directory: 'PATH'"
    plain,          ///< "PREFIXNo such file or directory"
};

/// A file the submission names, read through context.read_file (the one door): nothing
/// when it cannot be read, with submit.file worded as `style` says, or limit.input-size
/// when it is larger than context.limits allow.
std::optional<SubmitFile> read_submission_file(const SubmitContext& context,
                                               const std::string& path, std::string_view prefix,
                                               FileError style, Diagnostics& diagnostics);

/// Sets the dotted `path` in `object`, making objects on the way (empty parts kept).
/// False, with submit.value, when a part on the way is not an object.
bool set_dotted(boost::json::object& object, const std::string& path, boost::json::value value,
                Diagnostics& diagnostics);

/// files.NAME for --add-file [NAME[:PERMS]=]ARG; the name and the entry.
std::optional<std::pair<std::string, boost::json::object>>
add_file_entry(const std::string& text, const SubmitContext& context, Diagnostics& diagnostics);

} // namespace jobspec::lower
