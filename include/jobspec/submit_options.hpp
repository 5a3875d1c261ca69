// A flux submission command line as read (the options of flux run, submit, batch and
// alloc, and a batch script's directives), and what building its jobspec reads from the
// world. The entry points that read and compile them are in <jobspec/submit.hpp>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec {

/// Which flux command the options are those of: run and submit ask for tasks (-n is
/// --ntasks), batch and alloc for slots of a new instance (-n is --nslots).
enum class SubmitCommand { run, submit, batch, alloc };

/// The options of a flux submission command line, as given (values are the text typed;
/// they are converted and checked by compile_submission, in flux's order). Repeatable
/// options keep every value in order.
struct SubmitOptions {
    SubmitCommand command = SubmitCommand::run;
    /// The job command (run, submit), SCRIPT [ARGS] (batch) or COMMAND (alloc).
    std::vector<std::string> arguments;
    /// -n (--ntasks or --nslots), -N, -c, -g, and the per-resource options.
    std::optional<std::string> ntasks, nodes, cores_per_task, gpus_per_task;
    std::optional<std::string> cores, tasks_per_node, tasks_per_core, gpus_per_node;
    bool exclusive = false;
    std::optional<std::string> time_limit, job_name, queue, bank, cwd, urgency;
    /// --dependency URIs and --begin-time values, in command-line order (first: true for
    /// a begin time).
    std::vector<std::pair<bool, std::string>> dependencies;
    std::vector<std::string> requires_terms;
    /// --env, --env-remove (as "-PATTERN") and --env-file (as "^FILE"), in order.
    std::vector<std::string> environment_rules;
    /// Start from an empty environment instead of a copy of the caller's (jobspec's
    /// --env-none; flux has no such option, its equivalent is a first rule "-*").
    bool environment_none = false;
    std::vector<std::string> rlimits, setopts, setattrs, add_files, flags;
    /// -o and -S settings given as values by an API (Python's setattr={"user.x": [1]})
    /// rather than as text: KEY and its JSON value, set after the text ones as flux sets
    /// KEY=VALUE.
    std::vector<std::pair<std::string, boost::json::value>> setopt_values, setattr_values;
    std::optional<std::string> input, output, error, signal, taskmap;
    bool label_io = false, unbuffered = false, debug_emulate = false;
    std::optional<std::string> resources_shape, resources_json;
    /// submit --cc / --bcc: an RFC 22 idset; the jobspec of the first id is built.
    std::optional<std::string> cc, bcc;
    /// batch and alloc: broker options, configuration, --dump, --add-brokers, --wrap, --bg.
    std::vector<std::string> broker_opts, conf;
    std::optional<std::string> dump;
    std::optional<std::int64_t> add_brokers;
    bool wrap = false, background = false;
    /// batch: the script's text (read by the caller from arguments[0] or standard input).
    std::optional<std::string> script;
    /// batch: how messages name the script (its file name; "-" for standard input).
    std::string script_name = "script";
    /// A value read from one of the script's directives: the option's long name (without
    /// "--"), the value, and the script's byte offset of each byte of it.
    struct ValueOrigin {
        std::string option;
        std::string value;
        std::vector<std::uint32_t> offsets;
    };
    /// batch: every option value the directives gave, in order. compile_submission
    /// places a diagnostic in such a value at its line and column in the script.
    std::vector<ValueOrigin> value_origins;
};

/// One option given by name rather than as command-line words (an API's keyword
/// arguments): `--NAME=VALUE`, or `--NAME` when there is no value.
struct SubmitSetting {
    std::string name;
    std::optional<std::string> value;
};

/// A file a submission reads (SubmitContext::read_file): its bytes and mode, or why not.
struct SubmitFile {
    std::string content;
    /// st_mode (file type and permission bits), as --add-file records it.
    std::uint32_t mode = 0;
    /// errno when the file could not be opened or read (EISDIR for a directory), else 0.
    int error = 0;
    /// The file holds more than the limit (content is then not all of it).
    bool too_large = false;
};

/// What a submission reads from the world, given so that the same inputs always build
/// the same jobspec.
struct SubmitContext {
    /// The caller's environment, in its order.
    std::vector<std::pair<std::string, std::string>> environment;
    std::string cwd;
    std::string home;
    /// Soft resource limits by Python's names in its order (cpu, fsize, data, stack, core,
    /// nofile, ofile, as, rss, nproc, memlock, msgqueue, nice, rtprio, rttime,
    /// sigpending); -1 is unlimited.
    std::vector<std::pair<std::string, std::int64_t>> rlimits;
    /// Seconds since the epoch, for --begin-time.
    double now = 0;
    /// alloc without --bg sets pty.interactive when standard input is a terminal.
    bool interactive = false;
    Limits limits;
    /// Whose rules the jobspec built is checked by: in the Fluxion dialect, what
    /// Fluxion's reader refuses is an error too (fluxion.*), as when the scheduler reads it.
    Dialect dialect = Dialect::rfc;
    /// The one door every file of a submission comes through (--add-file, --env-file and
    /// --env=^FILE, -S/-o KEY=^FILE, --resources-json, --conf FILE.json): at most
    /// `max_bytes` + 1 bytes of the file at `path`, so that /dev/zero or an endless FIFO
    /// ends at once. current_submit_context() reads the file system; a caller may serve
    /// files of its own. Unset, every file is missing (ENOENT).
    std::function<SubmitFile(std::string_view path, std::size_t max_bytes)> read_file;
};

/// One RFC 36 submission directive of a batch script: its argument vector, where it
/// starts (line counts from 1, offset is the byte offset of its value in the script),
/// and where each argument was read from: origins[i][k] is the script's byte offset of
/// byte k of arguments[i]. An argument flux rewrites on the way (a triple-quoted text
/// on a line flux quotes again) has no origins (an empty vector).
struct Directive {
    std::size_t line = 0;
    std::size_t offset = 0;
    std::vector<std::string> arguments;
    std::vector<std::vector<std::uint32_t>> origins;
};

} // namespace jobspec
