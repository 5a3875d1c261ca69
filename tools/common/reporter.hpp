// Reporter: how a tool tells its user what went wrong, the same way for every subcommand.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/json/array.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec::cli {

/// Exit statuses: 0 success (warnings may be printed), 1 invalid input, 2 misuse (a bad
/// command line, or an input that cannot be read).
inline constexpr int exit_ok = 0;
inline constexpr int exit_invalid = 1;
inline constexpr int exit_usage = 2;

/// The options that choose how diagnostics print; every subcommand binds its
/// --diagnostics, --color and --strict to the one Reporter's copy.
struct ReportOptions {
    std::string format = "text";
    std::string color = "auto";
    bool strict = false;
};

/// Collects every diagnostic of one run. In text mode each is printed on stderr as it
/// comes (with carets, control characters shown escaped); in JSON mode they are kept and
/// finish() prints them as one JSON array (docs/DIAGNOSTICS.md), so stderr holds exactly
/// one JSON document whatever happened: usage errors, unreadable inputs, limits, syntax
/// and semantic errors alike.
class Reporter {
public:
    /// `program` names the tool in usage messages ("jobspec").
    explicit Reporter(std::string program);

    ReportOptions& options() noexcept { return options_; }
    /// Takes JSON mode from JOBSPEC_DIAGNOSTICS=json in the environment or "--diagnostics
    /// json" in the raw arguments, so that errors found while parsing them are already
    /// reported as JSON (a --diagnostics option parsed later still decides).
    void scan_arguments(int argc, char** argv);
    /// The subcommand chosen ("compile", "R decode"), for the "jobspec compile:" prefix.
    void set_command(std::string command);
    /// "jobspec compile", or "jobspec" before a subcommand is known.
    std::string prefix() const;

    /// Reports diagnostics about `source`, read from `path` ("-" for standard input, empty
    /// for a command-line argument); `first_line` is the number of its first line when it
    /// is one line of a longer input (see LineStream). With --strict, warnings become errors first. Returns
    /// the exit status they mean: exit_usage for io.unreadable, io.unwritable or usage.*,
    /// exit_invalid
    /// for another error, else exit_ok.
    int report(Diagnostics& diagnostics, std::string_view source = {},
               std::string_view path = {}, std::size_t first_line = 1);
    /// Reports a result's diagnostics (as report does) and says whether to go on: exit_ok
    /// when it holds a value, else its exit status, at least exit_invalid. The step
    /// between reading an input and writing what was made of it, for every subcommand:
    ///   if (const int s = out.outcome(result, text, path); s != exit_ok) return s;
    template <class T>
    int outcome(Result<T>& result, std::string_view source = {}, std::string_view path = {}) {
        const int s = report(result.diagnostics(), source, path);
        return s != exit_ok ? s : result.ok() ? exit_ok : exit_invalid;
    }
    /// Reports one diagnostic without a source position; returns its exit status.
    int report(Code code, std::string message, std::string help = {});
    /// A usage error: "jobspec compile: MESSAGE" in text mode. Returns exit_usage.
    int usage(Code code, std::string message, std::string help = {});

    /// The text of an input file, or of standard input for "-", within `limits` (see
    /// jobspec::read_input). Nothing when it cannot be read, is too long or is empty
    /// (unless `allow_empty`): then the problem is reported and `status` raised to its
    /// exit status (statuses only rise: 0 < 1 < 2).
    std::optional<std::string> read(std::string_view path, const Limits& limits, int& status,
                                    bool allow_empty = false);
    /// The text of an argument: itself, or standard input for "-" (without its trailing
    /// newlines). Nothing when standard input cannot be read or is empty (io.empty, as
    /// for every input), with `status` raised.
    std::optional<std::string> argument(const std::string& argument, const Limits& limits,
                                        int& status);

    /// Ends the run: in JSON mode prints the collected array. Returns `status`.
    int finish(int status);

private:
    bool json() const noexcept { return options_.format == "json"; }
    bool color() const;

    std::string program_;
    std::string command_;
    ReportOptions options_;
    boost::json::array collected_;
};

} // namespace jobspec::cli
