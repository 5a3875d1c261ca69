#include "document_check.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <jobspec/document.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::cli {

namespace {

bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> endings) {
    return std::any_of(endings.begin(), endings.end(),
                       [&](std::string_view e) { return name.ends_with(e); });
}

/// Where the lines of `text` that are directives start and end.
std::vector<SourceRange> directive_lines(std::string_view text) {
    std::vector<SourceRange> lines;
    auto directives = parse_directives(text);
    if (!directives.ok())
        return lines;
    for (const auto& d : directives.value()) {
        const std::size_t end = std::min(text.find('\n', d.offset), text.size());
        lines.push_back({static_cast<std::uint32_t>(d.offset), static_cast<std::uint32_t>(end)});
    }
    return lines;
}

/// Whether `word` is written at `at` of `line` as an option's value: after '=', a blank
/// or a quote, and ending the word.
bool value_at(std::string_view line, std::size_t at, std::size_t size) {
    const auto bounded = [](char c) { return c == ' ' || c == '\t' || c == '"' || c == '\''; };
    const bool starts = at > 0 && (line[at - 1] == '=' || bounded(line[at - 1]));
    const bool ends = at + size == line.size() || bounded(line[at + size]);
    return starts && ends;
}

/// A diagnostic in an option's value, moved into the directive that gave the value when
/// exactly one directive naming that option holds the value as written; else placed on
/// the first directive naming the option, its fixes dropped (they are not certain); else
/// as it was.
Diagnostic located(Diagnostic d, std::string_view text, const std::vector<SourceRange>& lines) {
    const SourceText& own = *d.location.source;
    std::optional<std::size_t> found;
    std::optional<SourceRange> naming;
    bool twice = false;
    for (const SourceRange& r : lines) {
        const std::string_view line = text.substr(r.begin, r.size());
        const std::size_t option = line.find(own.name);
        if (option == std::string_view::npos)
            continue;
        if (!naming)
            naming = SourceRange{static_cast<std::uint32_t>(r.begin + option),
                                 static_cast<std::uint32_t>(r.begin + option + own.name.size())};
        if (own.text.empty())
            continue;
        for (std::size_t at = line.find(own.text, option); at != std::string_view::npos;
             at = line.find(own.text, at + 1)) {
            if (!value_at(line, at, own.text.size()))
                continue;
            twice = twice || found.has_value();
            found = r.begin + at;
        }
    }
    if (found && !twice) {
        d.location.source = nullptr;
        d.shift(*found);
        return d;
    }
    if (naming) {
        d.location = Location{*naming, d.location.pointer};
        d.fixes.clear();
    }
    return d;
}

Diagnostics check_batch_script(std::string_view text, const Limits& limits, Dialect dialect) {
    SubmitOptions start;
    start.command = SubmitCommand::batch;
    start.environment_none = true;
    SubmitContext context = current_submit_context();
    context.limits = limits;
    context.dialect = dialect;
    Diagnostics found(limits.max_diagnostics);
    auto options = read_submission(std::vector<std::string>{"script"}, start, context, text);
    found.append(options.diagnostics());
    if (options.ok()) {
        auto result = compile_submission(options.value(), context);
        found.append(result.diagnostics());
    }
    // Ranges into the script itself lose their source; those into an option's value are
    // found in the directive that gave it (the directives read again only then).
    std::optional<std::vector<SourceRange>> lines;
    Diagnostics out(limits.max_diagnostics);
    for (Diagnostic d : found) {
        const SourceText* own = d.location.source.get();
        if (own != nullptr && own->file && own->name == "script") {
            d.location.source = nullptr;
        } else if (own != nullptr && !own->file && d.location.range.known()) {
            if (!lines)
                lines = directive_lines(text);
            d = located(std::move(d), text, *lines);
        }
        out.add(std::move(d));
    }
    return out;
}

} // namespace

std::optional<DocumentKind> document_kind(std::string_view name, std::string_view text) {
    if (ends_with_any(name, {".shape"}))
        return DocumentKind::shape;
    if (ends_with_any(name, {".yaml", ".yml", ".json"}))
        return DocumentKind::jobspec;
    if (ends_with_any(name, {".sh", ".bash", ".batch", ".flux"}))
        return DocumentKind::batch_script;
    const std::string_view body =
        text.substr(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
    if (body.starts_with("#!") || body.starts_with("#flux:") ||
        text.find("\n#flux:") != std::string_view::npos)
        return DocumentKind::batch_script;
    if (body.starts_with("{") || body.starts_with("version:") || body.starts_with("resources:") ||
        body.starts_with("---"))
        return DocumentKind::jobspec;
    return std::nullopt;
}

Diagnostics check_document(DocumentKind kind, std::string_view text, const Limits& limits,
                           Dialect dialect) {
    Diagnostics out(limits.max_diagnostics);
    switch (kind) {
    case DocumentKind::batch_script:
        out = check_batch_script(text, limits, dialect);
        break;
    case DocumentKind::jobspec: {
        ReadOptions options;
        options.limits = limits;
        options.dialect = dialect;
        out = read_jobspec(text, options).diagnostics();
        break;
    }
    case DocumentKind::shape: {
        ShapeOptions options;
        options.limits = limits;
        // A shape file may end with a newline, as editors write files.
        std::string_view shape = text;
        while (!shape.empty() && (shape.back() == '\n' || shape.back() == '\r'))
            shape.remove_suffix(1);
        out = compile_shape(shape, options).diagnostics();
        break;
    }
    }
    out.sort_by_position();
    return out;
}

} // namespace jobspec::cli
