// Building a jobspec from the options of `flux run`, `flux submit`, `flux batch` and
// `flux alloc`, as their `--dry-run` prints it (flux-core 0.88).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Which flux command the options are those of: run and submit ask for tasks (-n is
/// --ntasks), batch and alloc for slots of a new instance (-n is --nslots).
enum class SubmitCommand { run, submit, batch, alloc };

/// The command named "run", "submit", "batch" or "alloc"; nothing for another name.
JOBSPEC_API std::optional<SubmitCommand> submit_command_named(std::string_view name);

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
    /// The one door every file of a submission comes through (--add-file, --env-file and
    /// --env=^FILE, -S/-o KEY=^FILE, --resources-json, --conf FILE.json): at most
    /// `max_bytes` + 1 bytes of the file at `path`, so that /dev/zero or an endless FIFO
    /// ends at once. current_submit_context() reads the file system; a caller may serve
    /// files of its own. Unset, every file is missing (ENOENT).
    std::function<SubmitFile(std::string_view path, std::size_t max_bytes)> read_file;
};

/// The context of this process: its environment, working directory, home, resource
/// limits, the clock and whether standard input is a terminal.
JOBSPEC_API SubmitContext current_submit_context();

/// Reads a flux command line (the words after `flux run`) into `options`, which may
/// already hold values (from RFC 36 directives: repeatable options append, others are
/// replaced). Option parsing stops at the first word that is not an option (or at `--`,
/// which is dropped for run and submit); long options are never abbreviated; short
/// options cluster (-xn2). Fails with usage.unknown-option, usage.missing-argument or
/// usage.option-value (what flux's parser rejects with exit status 2).
JOBSPEC_API Result<SubmitOptions> parse_submit_arguments(const std::vector<std::string>& words,
                                                         SubmitOptions options = {});

/// One RFC 36 submission directive of a batch script: its argument vector, where it
/// starts (line counts from 1, offset is the byte offset of its value in the script).
struct Directive {
    std::size_t line = 0;
    std::size_t offset = 0;
    std::vector<std::string> arguments;
};

/// The directives of a batch script, in order: lines "PREFIX flux: VALUE" (or FLUX:) where
/// PREFIX holds no letter, digit or '_', all with the same PREFIX and tag; VALUE split into
/// words as a POSIX shell would (quotes, backslashes, '#' comments) with triple-quoted
/// values (""" or ''') that may span lines. Directives stop at the first line that is not
/// blank and does not start with the prefix. Fails with directive.orphan (a directive
/// after they stopped), directive.sentinel (another prefix or tag), directive.quote (an
/// unclosed quote, a backslash at the end), directive.unknown (a value whose first word is
/// not an option), each with the line and a byte range into `script`.
JOBSPEC_API Result<std::vector<Directive>> parse_directives(std::string_view script);

/// The options `flux batch` runs a script with: the script's RFC 36 directives first, each
/// read as its own command line over the options before it (words after its first
/// non-option are dropped), then the command line `words` over them all, so that its
/// options win and its repeatable ones come after the directives'. `start` holds the
/// command (batch) and jobspec's own settings; the result holds `script`. Fails with
/// parse_directives's diagnostics, directive.option (a directive's option that flux's
/// parser rejects, with that directive's line and byte range) or the usage.* diagnostics
/// of the command line.
JOBSPEC_API Result<SubmitOptions> parse_batch_arguments(std::string script,
                                                        const std::vector<std::string>& words,
                                                        SubmitOptions start = {});

/// How many words the option at `words[at]` uses (itself and a value written apart), or 0
/// when `words[at]` starts the command part (a non-option word, "--", "-", a negative
/// number). An unknown option word uses 1. For tools that mix their own options in.
JOBSPEC_API std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                                           SubmitCommand command);

/// The jobspec `flux <command> --dry-run` prints for `options`, with keys in flux's
/// order, checked by the canonical RFC 14 pass (and RFC 25 V1 unless the resources come
/// from --resources-shape or --resources-json). Fails with submit.value (a value flux
/// rejects: a bad duration, count, URI, signal, rule), submit.layout (counts that do not
/// fit together), submit.file (a file that cannot be read) or the check's diagnostics.
JOBSPEC_API Result<boost::json::value> compile_submission(const SubmitOptions& options,
                                                          const SubmitContext& context);

/// Flux Standard Duration in seconds: a float with an optional unit ms, s, m, h or d, or
/// inf/infinity. Nothing when malformed, negative or NaN.
JOBSPEC_API std::optional<double> parse_flux_duration(std::string_view text);

} // namespace jobspec
