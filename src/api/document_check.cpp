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
    // Ranges into the script itself (compile_submission places a directive's values
    // there too) lose their source. One in a value it could not place (a line flux
    // quotes again) goes on the option's first value, without fixes: every value here
    // came from a directive.
    Diagnostics out(limits.max_diagnostics);
    for (Diagnostic d : found) {
        const SourceText* own = d.location.source.get();
        if (own != nullptr && own->file && own->name == "script") {
            d.location.source = nullptr;
        } else if (own != nullptr && !own->file && own->name.starts_with("--") && options.ok()) {
            const auto& origins = options.value().value_origins;
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
