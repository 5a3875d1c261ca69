// The C API's error objects: diagnostics with their positions resolved.
#include <cstdlib>
#include <cstring>
#include <memory>

#include <jobspec/render.hpp>

#include "capi/handles.hpp"

namespace jobspec::capi {

void set_error(jobspec_error** error, Diagnostics diagnostics, std::string_view source) noexcept {
    if (error == nullptr)
        return;
    *error = nullptr;
    try {
        auto e = std::make_unique<jobspec_error>();
        e->source = source;
        e->positions.reserve(diagnostics.size());
        for (const auto& d : diagnostics) {
            jobspec_error::Position at;
            const SourceRange r = d.location.range;
            const std::string_view text =
                d.location.source ? std::string_view(d.location.source->text) : source;
            if (r.known() && r.begin <= text.size()) {
                const TextPosition p = text_position(text, r.begin);
                at = {r.begin, r.size(), p.line, p.column};
            }
            e->positions.push_back(at);
        }
        e->diagnostics = std::move(diagnostics);
        *error = e.release();
    } catch (...) {
        *error = nullptr;
    }
}

void set_error(jobspec_error** error, Code code, std::string_view message) noexcept {
    if (error == nullptr)
        return;
    try {
        Diagnostics d;
        d.add(code, std::string(message));
        set_error(error, std::move(d));
    } catch (...) {
        *error = nullptr;
    }
}

char* new_text(std::string_view text) noexcept {
    auto* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out == nullptr)
        return nullptr;
    std::memcpy(out, text.data(), text.size());
    out[text.size()] = '\0';
    return out;
}

char* new_text(std::string_view text, jobspec_error** error) noexcept {
    char* out = new_text(text);
    if (out == nullptr)
        set_error(error, Code::api_internal, "out of memory");
    return out;
}

bool require(const void* argument, const char* what, jobspec_error** error) {
    if (argument != nullptr)
        return true;
    set_error(error, Code::api_invalid_argument, std::string(what) + " is NULL");
    return false;
}

} // namespace jobspec::capi

using jobspec::capi::guarded;
using jobspec::capi::new_text;

namespace {

const jobspec::Diagnostic* diagnostic(const jobspec_error* error, size_t index) {
    return error != nullptr && index < error->diagnostics.size() ? &error->diagnostics[index]
                                                                 : nullptr;
}

const jobspec_error::Position* position(const jobspec_error* error, size_t index) {
    return error != nullptr && index < error->positions.size() ? &error->positions[index] : nullptr;
}

} // namespace

extern "C" {

size_t jobspec_error_count(const jobspec_error* error) {
    return error != nullptr ? error->diagnostics.size() : 0;
}

const char* jobspec_error_code(const jobspec_error* error, size_t index) {
    // Code names are string literals (diagnostic_codes.def), so NUL-terminated.
    const auto* d = diagnostic(error, index);
    return d != nullptr ? d->code_name().data() : nullptr;
}

const char* jobspec_error_message(const jobspec_error* error, size_t index) {
    const auto* d = diagnostic(error, index);
    return d != nullptr ? d->message.c_str() : nullptr;
}

const char* jobspec_error_help(const jobspec_error* error, size_t index) {
    const auto* d = diagnostic(error, index);
    return d != nullptr ? d->help.c_str() : nullptr;
}

const char* jobspec_error_source(const jobspec_error* error, size_t index) {
    const auto* d = diagnostic(error, index);
    if (d == nullptr)
        return nullptr;
    return d->location.source ? d->location.source->name.c_str() : "";
}

const char* jobspec_error_pointer(const jobspec_error* error, size_t index) {
    const auto* d = diagnostic(error, index);
    return d != nullptr ? d->location.pointer.c_str() : nullptr;
}

bool jobspec_error_is_warning(const jobspec_error* error, size_t index) {
    const auto* d = diagnostic(error, index);
    return d != nullptr && d->severity == jobspec::Severity::warning;
}

int64_t jobspec_error_offset(const jobspec_error* error, size_t index) {
    const auto* p = position(error, index);
    return p != nullptr ? p->offset : -1;
}

size_t jobspec_error_length(const jobspec_error* error, size_t index) {
    const auto* p = position(error, index);
    return p != nullptr ? p->length : 0;
}

size_t jobspec_error_line(const jobspec_error* error, size_t index) {
    const auto* p = position(error, index);
    return p != nullptr ? p->line : 0;
}

size_t jobspec_error_column(const jobspec_error* error, size_t index) {
    const auto* p = position(error, index);
    return p != nullptr ? p->column : 0;
}

char* jobspec_error_text(const jobspec_error* error, const char* source_name, bool color) {
    if (error == nullptr)
        return new_text("");
    return guarded<char*>(nullptr, [&] {
        jobspec::RenderOptions options;
        options.color = color;
        options.source_name = source_name != nullptr ? source_name : "";
        return new_text(jobspec::render_text(error->diagnostics, error->source, options));
    });
}

static_assert(JOBSPEC_FLUX_VERDICT_BYTES == jobspec::flux_verdict_bytes);

char* jobspec_error_summary(const jobspec_error* error, size_t max_bytes) {
    if (error == nullptr)
        return new_text("");
    return guarded<char*>(
        nullptr, [&] { return new_text(jobspec::render_line(error->diagnostics, max_bytes)); });
}

char* jobspec_error_json(const jobspec_error* error) {
    if (error == nullptr)
        return new_text("[]\n");
    return guarded<char*>(
        nullptr, [&] { return new_text(jobspec::render_json(error->diagnostics, error->source)); });
}

void jobspec_error_free(jobspec_error* error) {
    delete error;
}

void jobspec_free(char* text) {
    std::free(text); // NOLINT(cppcoreguidelines-no-malloc)
}

} // extern "C"
