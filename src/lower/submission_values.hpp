// The values of flux submission options, each lowered into the model once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/attributes.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/submit_options.hpp>

#include "syntax/dependency_parser.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// shell.options.taskmap from a --taskmap URI as flux builds it: {"scheme" (in lower
/// case), "value", options...}, each option's value a number when Python reads one, a key
/// given twice a list; "scheme" and "value" options replace the URI's own.
boost::json::object taskmap_object(const syntax::DependencyAst& uri);

/// The RFC 26 dependency of a --dependency URI, with its ranges in the URI (lowered as
/// dependency_from_uri lowers one); "scheme" and "value" options replace the URI's own,
/// as flux lets them. Nothing, with jobspec.dependency, when one is not a string.
std::optional<Dependency> flux_dependency(syntax::DependencyAst uri, Diagnostics& diagnostics);

/// A --begin-time: now, +FSD / -FSD, or a date and clock time in the local time zone.
/// Seconds since the epoch, rounded to microseconds.
std::optional<double> begin_time(const std::string& text, double now, Diagnostics& diagnostics);

/// shell.options.signal from --signal [SIG][@TIME]; nothing for an empty value.
std::optional<boost::json::object> signal_option(const std::string& text,
                                                 Diagnostics& diagnostics);

/// A -S/-o value: JSON when it parses (NaN and Infinity too), else the text; ranges are
/// byte offsets into `text`.
syntax::DocNode setting_value(const std::string& text, const Limits& limits);

/// JSON text as a tree, read by the one JSON reader (syntax::read_json) within `limits`
/// as Python's json module reads it (a repeated key's last value kept): what flux reads
/// -S values, ^FILE settings and --resources-json with. Nothing, with the reader's
/// diagnostics, when it is not JSON.
std::optional<syntax::DocNode> json_tree(std::string_view text, const Limits& limits,
                                         Diagnostics& diagnostics);

/// json_tree's tree as a JSON value, for what stays JSON in the jobspec (--conf). Nothing,
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
/// False, with submit.value naming `shown` + `path`, when a part on the way is not an
/// object.
bool set_dotted(boost::json::object& object, const std::string& path, boost::json::value value,
                Diagnostics& diagnostics, std::string_view shown = {});

/// submit.value: setting `path` to `value` failed because `part` is not an object.
void not_an_object(std::string_view path, const boost::json::value& value, std::string_view part,
                   Diagnostics& diagnostics);

/// The JSON dictionary of system attribute `key` (shell, job, files), made at the end
/// when absent; nullptr, with not_an_object for `path` under it, when it holds something
/// else.
boost::json::value* system_json(AttributeList& system, const std::string& key,
                                std::string_view path, const boost::json::value& value,
                                Diagnostics& diagnostics);

/// Sets the dotted `path` inside system attribute `key`'s dictionary (system_json), as
/// flux sets attributes.system.KEY.PATH.
bool set_system_json(AttributeList& system, const std::string& key, const std::string& path,
                     boost::json::value value, Diagnostics& diagnostics);

/// files.NAME for --add-file [NAME[:PERMS]=]ARG; the name and the entry.
std::optional<std::pair<std::string, boost::json::object>>
add_file_entry(const std::string& text, const SubmitContext& context, Diagnostics& diagnostics);

} // namespace jobspec::lower
