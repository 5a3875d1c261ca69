// compile_submission, options -> lower -> sema -> emit, and what a submission reads from
// this process (current_submit_context).
#include <jobspec/submit.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include "api/bounded_read.hpp"
#include "api/jobspec_checks.hpp"
#include "emit/flux_submission_json.hpp"
#include "lower/submission_jobspec.hpp"
#include "support/python_numbers.hpp"

extern char** environ;

namespace jobspec {

namespace {

/// Where the bytes `r` of a value are in the script, through the value's `offsets`.
std::optional<SourceRange> in_script(const std::vector<std::uint32_t>& offsets, SourceRange r) {
    if (!r.known() || r.begin > r.end || r.end > offsets.size() || offsets.empty())
        return std::nullopt;
    const std::uint32_t begin = r.begin < offsets.size() ? offsets[r.begin] : offsets.back() + 1;
    return SourceRange{begin, r.end > r.begin ? offsets[r.end - 1] + 1 : begin};
}

/// A diagnostic in an option's value that a directive of the batch script gave, placed
/// in `script` (options.value_origins): at the value's bytes when the text is the value
/// (the last written so) or the option's values joined by blanks (as --requires joins
/// its terms), its fixes kept when each replaces bytes written as one run there. Others
/// (a value that is not one of those, say with words from the command line) as they were.
Diagnostic placed_in_script(Diagnostic d, const SubmitOptions& options,
                            const std::shared_ptr<const SourceText>& script) {
    const SourceText* own = d.location.source.get();
    if (own == nullptr || own->file || !own->name.starts_with("--"))
        return d;
    const std::string_view option = std::string_view(own->name).substr(2);
    std::vector<const SubmitOptions::ValueOrigin*> given;
    for (const auto& o : options.value_origins)
        if (o.option == option && !o.offsets.empty())
            given.push_back(&o);
    if (given.empty())
        return d;
    std::vector<std::uint32_t> offsets;
    if (const auto same = std::find_if(given.rbegin(), given.rend(),
                                       [&](const auto* o) { return o->value == own->text; });
        same != given.rend()) {
        offsets = (*same)->offsets;
    } else {
        std::string joined;
        for (const auto* o : given) {
            if (!joined.empty()) {
                joined += ' ';
                offsets.push_back(offsets.back() + 1);
            }
            joined += o->value;
            offsets.insert(offsets.end(), o->offsets.begin(), o->offsets.end());
        }
        if (joined != own->text)
            offsets.clear();
    }
    const auto range = in_script(offsets, d.location.range);
    if (!range)
        return d;
    for (FixIt& fix : d.fixes) {
        const auto moved = in_script(offsets, fix.range);
        if (!moved || moved->size() != fix.range.size()) {
            d.fixes.clear();
            break;
        }
        fix.range = *moved;
    }
    d.location.range = *range;
    d.location.source = script;
    return d;
}

Result<boost::json::value> compile_options(const SubmitOptions& options,
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
    api::JobspecChecks checks;
    checks.text_encoding = true;
    checks.limits = &context.limits;
    checks.v1 = submission->resources_from == lower::SubmissionResources::layout;
    checks.v1_only_when_canonical = true;
    api::check_model(js, checks, found);
    submission->sources.attach(found, d);
    if (d.has_errors())
        return Result<boost::json::value>(std::move(d));
    const auto order = submission->resources_from == lower::SubmissionResources::layout
                           ? emit::FluxVertexOrder::layout
                           : emit::FluxVertexOrder::canonical;
    const auto& written = submission->resources_as_written;
    return {emit::flux_submission_json(js, order, written ? &*written : nullptr), std::move(d)};
}

} // namespace

Result<boost::json::value> compile_submission(const SubmitOptions& options,
                                              const SubmitContext& context) {
    auto compiled = compile_options(options, context);
    if (!options.script || options.value_origins.empty())
        return compiled;
    const auto script =
        std::make_shared<const SourceText>(SourceText{options.script_name, *options.script, true});
    Diagnostics placed(context.limits.max_diagnostics);
    for (Diagnostic d : compiled.diagnostics())
        placed.add(placed_in_script(std::move(d), options, script));
    if (!compiled.ok())
        return Result<boost::json::value>(std::move(placed));
    return {std::move(compiled).value(), std::move(placed)};
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
