// The submission doors that read: a flux command line, options by name, a batch script
// and its directives -> SubmitOptions (syntax, and the script through the file door).
#include <jobspec/submit.hpp>

#include <algorithm>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include <jobspec/input.hpp>
#include <jobspec/text.hpp>

#include "lower/submission_values.hpp"
#include "syntax/directives.hpp"
#include "syntax/submit_arguments.hpp"

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

/// Each misspelt `--name` of a directive, where it is written, with the edit to the
/// option meant; false when none is written as one run of the script's bytes.
bool misspelt_options(const Directive& directive, SubmitCommand command, Diagnostics& d) {
    bool found = false;
    for (std::size_t i = 0; i < directive.arguments.size(); ++i) {
        const std::string& word = directive.arguments[i];
        if (!word.starts_with("--"))
            continue;
        const std::string_view written = std::string_view(word).substr(0, word.find('='));
        const auto near = syntax::misspelt_long_option(written.substr(2), command);
        if (!near || i >= directive.origins.size())
            continue;
        const auto& at = directive.origins[i];
        if (at.size() != word.size() || at[written.size() - 1] + 1 - at[0] != written.size())
            continue;
        const SourceRange range{at[0], at[written.size() - 1] + 1};
        d.add(Code::directive_option, fmt::format("unrecognized arguments: {}", word),
              Location{range, {}}, fmt::format("did you mean '--{}'?", *near),
              {FixIt{range, fmt::format("--{}", *near)}});
        found = true;
    }
    return found;
}

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
        syntax::read_submit_arguments(directive.arguments, merged, given, &directive.origins);
        merged.arguments = std::move(arguments);
        const std::size_t end = std::min(script.find('\n', directive.offset), script.size());
        for (const auto& problem : given) {
            if (problem.severity != Severity::error)
                continue;
            if (problem.code == Code::usage_unknown_option &&
                misspelt_options(directive, merged.command, d))
                continue;
            // At the words it is about, where the reader knows them; else the line.
            const SourceRange line{static_cast<std::uint32_t>(directive.offset),
                                   static_cast<std::uint32_t>(end)};
            const SourceRange& at = problem.location.range;
            d.add(Code::directive_option, problem.message, Location{at.known() ? at : line, {}},
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
    SubmitOptions read = std::move(batch).value();
    read.script_name = name;
    return {std::move(read), std::move(found)};
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

} // namespace jobspec
