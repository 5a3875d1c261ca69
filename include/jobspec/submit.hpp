// Building a jobspec from the options of `flux run`, `flux submit`, `flux batch` and
// `flux alloc`, as their `--dry-run` prints it (flux-core 0.88). What a command line is
// read into is <jobspec/submit_options.hpp>.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/result.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec {

/// The command named "run", "submit", "batch" or "alloc"; nothing for another name.
JOBSPEC_API std::optional<SubmitCommand> submit_command_named(std::string_view name);

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

/// A batch script's text as flux batch takes it: UTF-8 (else submit.file "NAME does not
/// appear to be a script, or failed to encode as utf-8"), with "\r\n" and "\r" made
/// "\n" as Python reads text. `name` is how messages name the script.
JOBSPEC_API Result<std::string> prepare_batch_script(std::string_view text, std::string_view name);

/// A whole flux command line (`words`, the words after `flux COMMAND`) read into options,
/// the one way every front end reads one (the jobspec command, the C API, Python): the
/// words over `start` (parse_submit_arguments), and for batch without --wrap the script
/// first, its directives applying before the words (parse_batch_arguments). The script
/// is `script` when given, else the file the first argument names ("-" or none: standard
/// input) read through context.read_file and prepare_batch_script. Diagnostics about the
/// script carry it as their source (Location::source), so they show its line and column.
/// Fails as those functions do, and with submit.file or limit.input-size when the
/// script cannot be read.
JOBSPEC_API Result<SubmitOptions> read_submission(const std::vector<std::string>& words,
                                                  const SubmitOptions& start,
                                                  const SubmitContext& context,
                                                  std::optional<std::string_view> script = {});

/// read_submission for options given by name (an API's keyword arguments) rather than
/// as words: `settings` in order over `start` (each as `--NAME=VALUE` would set it),
/// `arguments` the command (batch: SCRIPT [ARGS]). For batch without --wrap the script's
/// directives apply first, as read_submission's do. Fails with usage.unknown-option,
/// usage.option-value or usage.missing-argument for a setting flux's parser would
/// refuse, and as read_submission does.
JOBSPEC_API Result<SubmitOptions> read_submission(const std::vector<SubmitSetting>& settings,
                                                  const std::vector<std::string>& arguments,
                                                  const SubmitOptions& start,
                                                  const SubmitContext& context,
                                                  std::optional<std::string_view> script = {});

/// How many words the option at `words[at]` uses (itself and a value written apart), or 0
/// when `words[at]` starts the command part (a non-option word, "--", "-", a negative
/// number). An unknown option word uses 1. For tools that mix their own options in.
JOBSPEC_API std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                                           SubmitCommand command);

/// The options of flux's `command` that read_submission reads, one usage each in table
/// order, e.g. "-N, --nodes=VALUE", "--dump[=VALUE]", "-x, --exclusive".
JOBSPEC_API std::vector<std::string> submit_option_usages(SubmitCommand command);

/// The jobspec `flux <command> --dry-run` prints for `options`, with keys in flux's
/// order, checked by the canonical RFC 14 pass (and RFC 25 V1 unless the resources come
/// from --resources-shape or --resources-json). Fails with submit.value (a value flux
/// rejects: a bad duration, count, URI, signal, rule), submit.layout (counts that do not
/// fit together), submit.file (a file that cannot be read) or the check's diagnostics.
/// A diagnostic in a value that one of a batch script's directives gave points into the
/// script (its source is the script, named options.script_name), through the value's
/// options.value_origins; one in another value points into that option's text.
JOBSPEC_API Result<boost::json::value> compile_submission(const SubmitOptions& options,
                                                          const SubmitContext& context);

/// Flux Standard Duration in seconds: a float with an optional unit ms, s, m, h or d, or
/// inf/infinity. Nothing when malformed, negative or NaN.
JOBSPEC_API std::optional<double> parse_flux_duration(std::string_view text);

} // namespace jobspec
