// check_document and document_kind: which kind a document is, and its checks.
#include <jobspec/document_check.hpp>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <utility>
#include <vector>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

namespace jobspec {

namespace {

bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> endings) {
    return std::any_of(endings.begin(), endings.end(),
                       [&](std::string_view e) { return name.ends_with(e); });
}

/// The language names that say a kind.
constexpr std::array<std::pair<std::string_view, DocumentKind>, 9> language_kinds{{
    {"batch", DocumentKind::batch_script},
    {"sh", DocumentKind::batch_script},
    {"bash", DocumentKind::batch_script},
    {"shellscript", DocumentKind::batch_script},
    {"jobspec", DocumentKind::jobspec},
    {"yaml", DocumentKind::jobspec},
    {"json", DocumentKind::jobspec},
    {"shape", DocumentKind::shape},
    {"jobspec-shape", DocumentKind::shape},
}};

/// A batch script's submission: the jobspec `flux batch` would submit. Every range into
/// the script loses its source (the editor's text is the script); a problem in a value
/// the script's reader could not place (a line flux quotes again) goes on the option's
/// first value, without fixes.
Result<boost::json::value> check_batch_script(std::string_view text,
                                              const DocumentOptions& options) {
    SubmitOptions start;
    start.command = SubmitCommand::batch;
    start.environment_none = true;
    SubmitContext context =
        options.context != nullptr ? *options.context : current_submit_context();
    context.limits = options.limits;
    context.dialect = options.dialect;
    Diagnostics found(options.limits.max_diagnostics);
    auto read = read_submission(std::vector<std::string>{"script"}, start, context, text);
    found.append(read.diagnostics());
    std::optional<boost::json::value> compiled;
    if (read.ok()) {
        auto result = compile_submission(read.value(), context);
        found.append(result.diagnostics());
        if (result.ok())
            compiled = std::move(result).value();
    }
    Diagnostics out(options.limits.max_diagnostics);
    for (Diagnostic d : found) {
        const SourceText* own = d.location.source.get();
        if (own != nullptr && own->file && own->name == "script") {
            d.location.source = nullptr;
        } else if (own != nullptr && !own->file && own->name.starts_with("--") && read.ok()) {
            const auto& origins = read.value().value_origins;
            const auto first = std::find_if(origins.begin(), origins.end(), [&](const auto& o) {
                return "--" + o.option == own->name && !o.offsets.empty();
            });
            if (first != origins.end()) {
                d.location = Location{{first->offsets.front(), first->offsets.back() + 1},
                                      d.location.pointer};
                d.fixes.clear();
            }
        }
        out.add(std::move(d));
    }
    if (!compiled || out.has_errors())
        return Result<boost::json::value>(std::move(out));
    return {std::move(*compiled), std::move(out)};
}

template <class T, class Write>
Result<boost::json::value> written(Result<T> result, Write write) {
    if (!result.ok())
        return Result<boost::json::value>(std::move(result).diagnostics());
    Diagnostics diagnostics = result.diagnostics();
    return {write(result.value()), std::move(diagnostics)};
}

} // namespace

std::optional<DocumentKind> document_kind(std::string_view name, std::string_view text,
                                          std::string_view language) {
    for (const auto& [said, kind] : language_kinds)
        if (said == language)
            return kind;
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

Result<boost::json::value> check_document(DocumentKind kind, std::string_view text,
                                          const DocumentOptions& options) {
    Result<boost::json::value> out{Diagnostics{}};
    switch (kind) {
    case DocumentKind::batch_script:
        out = check_batch_script(text, options);
        break;
    case DocumentKind::jobspec: {
        ReadOptions read;
        read.limits = options.limits;
        read.dialect = options.dialect;
        out = written(read_jobspec(text, read), [](const Jobspec& j) { return to_json_value(j); });
        break;
    }
    case DocumentKind::shape: {
        ShapeOptions shape_options;
        shape_options.limits = options.limits;
        // A shape file may end with a newline, as editors write files.
        std::string_view shape = text;
        while (!shape.empty() && (shape.back() == '\n' || shape.back() == '\r'))
            shape.remove_suffix(1);
        out = written(compile_shape(shape, shape_options),
                      [](const ResourceList& r) { return to_json_value(r); });
        break;
    }
    }
    out.diagnostics().sort_by_position();
    return out;
}

} // namespace jobspec
