// The submission doors: a flux command line read into options (syntax), and
// compile_submission, options -> lower -> sema -> emit.
#include <jobspec/submit.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include <jobspec/input.hpp>
#include <jobspec/text.hpp>

#include "api/bounded_read.hpp"
#include "emit/flux_submission_json.hpp"
#include "lower/submission_jobspec.hpp"
#include "lower/submission_values.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/size_limits.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "support/python_numbers.hpp"
#include "syntax/directives.hpp"
#include "syntax/submit_arguments.hpp"

extern char** environ;

namespace jobspec {

std::optional<SubmitCommand> submit_command_named(std::string_view name) {
    if (name == "run")
        return SubmitCommand::run;
    if (name == "submit")
        return SubmitCommand::submit;
    if (name == "batch")
        return SubmitCommand::batch;
    if (name == "alloc")
        return SubmitCommand::alloc;
    return std::nullopt;
}

Result<SubmitOptions> parse_submit_arguments(const std::vector<std::string>& words,
                                             SubmitOptions options) {
    Diagnostics d;
    syntax::read_submit_arguments(words, options, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    return {std::move(options), std::move(d)};
}

std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                               SubmitCommand command) {
    return syntax::submit_option_span(words, at, command);
}

std::vector<std::string> submit_option_usages(SubmitCommand command) {
    return syntax::submit_option_usages(command);
}

Result<std::vector<Directive>> parse_directives(std::string_view script) {
    Diagnostics d;
    auto directives = syntax::read_directives(script, d);
    if (d.has_errors())
        return Result<std::vector<Directive>>(std::move(d));
    return {std::move(directives), std::move(d)};
}

namespace {

/// Sets options over those given: a command line's words, or named settings.
using ApplyOptions = std::function<void(SubmitOptions&, Diagnostics&)>;

/// The directives of `script` over `start`, then `apply` over them all.
Result<SubmitOptions> batch_over(std::string script, const ApplyOptions& apply,
                                 SubmitOptions start) {
    Diagnostics d;
    const auto directives = syntax::read_directives(script, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    SubmitOptions merged = std::move(start);
    for (const auto& directive : directives) {
        Diagnostics given;
        std::vector<std::string> arguments = std::move(merged.arguments);
        syntax::read_submit_arguments(directive.arguments, merged, given);
        merged.arguments = std::move(arguments);
        for (const auto& problem : given) {
            if (problem.severity != Severity::error)
                continue;
            const std::size_t end = std::min(script.find('\n', directive.offset), script.size());
            d.add(Code::directive_option, problem.message,
                  Location{SourceRange{static_cast<std::uint32_t>(directive.offset),
                                       static_cast<std::uint32_t>(end)},
                           {}},
                  problem.help);
        }
        if (d.has_errors())
            return Result<SubmitOptions>(std::move(d));
    }
    apply(merged, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    merged.script = std::move(script);
    return {std::move(merged), std::move(d)};
}

/// read_submission's steps for either way of giving options.
Result<SubmitOptions> read_with(const ApplyOptions& apply, const SubmitOptions& start,
                                const SubmitContext& context,
                                std::optional<std::string_view> script) {
    Diagnostics given;
    SubmitOptions options = start;
    apply(options, given);
    if (given.has_errors() || start.command != SubmitCommand::batch ||
        (options.wrap && !options.arguments.empty())) {
        if (given.has_errors())
            return Result<SubmitOptions>(std::move(given));
        return {std::move(options), std::move(given)};
    }
    const auto& arguments = options.arguments;
    const std::string path = arguments.empty() ? "-" : arguments.front();
    const std::string name(input_name(path));
    Diagnostics d;
    std::optional<std::string> text;
    if (script) {
        text = std::string(*script);
    } else if (auto file = lower::read_submission_file(
                   context, path, fmt::format("cannot read the script '{}': ", name),
                   lower::FileError::plain, d)) {
        text = std::move(file->content);
    }
    if (!text)
        return Result<SubmitOptions>(std::move(d));
    auto prepared = prepare_batch_script(*text, name);
    if (!prepared.ok())
        return Result<SubmitOptions>(std::move(prepared).diagnostics());
    auto batch = batch_over(prepared.value(), apply, start);
    // Problems in the script show its line and column, whoever renders them.
    const auto source =
        std::make_shared<const SourceText>(SourceText{name, std::move(prepared).value(), true});
    Diagnostics found;
    found.append(batch.diagnostics(), source);
    if (!batch.ok())
        return Result<SubmitOptions>(std::move(found));
    return {std::move(batch).value(), std::move(found)};
}

} // namespace

Result<SubmitOptions> parse_batch_arguments(std::string script,
                                            const std::vector<std::string>& words,
                                            SubmitOptions start) {
    return batch_over(
        std::move(script),
        [&](SubmitOptions& o, Diagnostics& d) { syntax::read_submit_arguments(words, o, d); },
        std::move(start));
}

Result<std::string> prepare_batch_script(std::string_view text, std::string_view name) {
    if (find_invalid_utf8(text) != std::string_view::npos) {
        Diagnostics d;
        d.add(Code::submit_file,
              fmt::format("{} does not appear to be a script, or failed to encode as utf-8", name));
        return Result<std::string>(std::move(d));
    }
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r') {
            out += text[i];
            continue;
        }
        out += '\n';
        if (i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
    }
    return out;
}

Result<SubmitOptions> read_submission(const std::vector<std::string>& words,
                                      const SubmitOptions& start, const SubmitContext& context,
                                      std::optional<std::string_view> script) {
    return read_with(
        [&](SubmitOptions& o, Diagnostics& d) { syntax::read_submit_arguments(words, o, d); },
        start, context, script);
}

Result<SubmitOptions> read_submission(const std::vector<SubmitSetting>& settings,
                                      const std::vector<std::string>& arguments,
                                      const SubmitOptions& start, const SubmitContext& context,
                                      std::optional<std::string_view> script) {
    return read_with(
        [&](SubmitOptions& o, Diagnostics& d) {
            for (const auto& setting : settings)
                syntax::set_submit_option(o, setting.name, setting.value, d);
            o.arguments = arguments;
        },
        start, context, script);
}

Result<boost::json::value> compile_submission(const SubmitOptions& options,
                                              const SubmitContext& context) {
    Diagnostics d(context.limits.max_diagnostics);
    auto submission = lower::lower_submission(options, context, d);
    if (!submission)
        return Result<boost::json::value>(std::move(d));
    const Jobspec& js = submission->jobspec;
    if (const Environment* env = js.attributes.environment())
        for (const auto& name : submission->repaired)
            if (std::any_of(env->begin(), env->end(),
                            [&](const EnvironmentVariable& v) { return v.name == name; }))
                d.add(Code::jobspec_environment_encoding,
                      fmt::format("environment variable '{}' is not valid UTF-8; each byte that "
                                  "is not was replaced by U+FFFD",
                                  name),
                      {}, "set it to UTF-8 text before running jobspec");
    // What is printed must pass validate: each pass runs once, on the model.
    Diagnostics found(context.limits.max_diagnostics);
    sema::check_text_encoding(js, found);
    if (!found.has_errors()) {
        sema::check_canonical(js, found);
        sema::check_sizes(js, context.limits, found);
        if (submission->resources_from == lower::SubmissionResources::layout &&
            !found.has_errors())
            sema::check_v1(js, found);
    }
    lower::attach_sources(submission->sources, found, d);
    if (d.has_errors())
        return Result<boost::json::value>(std::move(d));
    const auto order = submission->resources_from == lower::SubmissionResources::layout
                           ? emit::FluxVertexOrder::layout
                           : emit::FluxVertexOrder::canonical;
    const auto& written = submission->resources_as_written;
    return {emit::flux_submission_json(js, order, written ? &*written : nullptr), std::move(d)};
}

SubmitContext current_submit_context() {
    SubmitContext ctx;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string_view entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string_view::npos)
            ctx.environment.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    }
    std::error_code ec;
    ctx.cwd = std::filesystem::current_path(ec).string();
    if (const char* home = std::getenv("HOME"))
        ctx.home = home;
    static const std::pair<const char*, int> limits[] = {
        {"cpu", RLIMIT_CPU},         {"fsize", RLIMIT_FSIZE},
        {"data", RLIMIT_DATA},       {"stack", RLIMIT_STACK},
        {"core", RLIMIT_CORE},       {"nofile", RLIMIT_NOFILE},
        {"ofile", RLIMIT_NOFILE},    {"as", RLIMIT_AS},
        {"rss", RLIMIT_RSS},         {"nproc", RLIMIT_NPROC},
        {"memlock", RLIMIT_MEMLOCK}, {"msgqueue", RLIMIT_MSGQUEUE},
        {"nice", RLIMIT_NICE},       {"rtprio", RLIMIT_RTPRIO},
        {"rttime", RLIMIT_RTTIME},   {"sigpending", RLIMIT_SIGPENDING},
    };
    for (const auto& [name, resource] : limits) {
        rlimit l{};
        if (getrlimit(resource, &l) != 0)
            continue;
        ctx.rlimits.emplace_back(name, l.rlim_cur == RLIM_INFINITY
                                           ? std::int64_t{-1}
                                           : static_cast<std::int64_t>(l.rlim_cur));
    }
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    ctx.now =
        static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(now).count()) /
        1e6;
    ctx.interactive = isatty(0) != 0;
    ctx.read_file = [](std::string_view path, std::size_t max_bytes) {
        api::BoundedRead read = api::read_bounded(path, max_bytes);
        return SubmitFile{std::move(read.text), read.mode, read.error, read.too_large};
    };
    return ctx;
}

std::optional<double> parse_flux_duration(std::string_view text) {
    const auto seconds = support::flux_duration(text);
    if (!seconds || std::isnan(*seconds) || *seconds < 0)
        return std::nullopt;
    return seconds;
}

} // namespace jobspec
