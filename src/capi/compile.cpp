// The C API's text-to-JSON entry points: shapes, jobspec documents, dependencies, job ids.
#include <jobspec/dependency.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/input.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>
#include <jobspec/version.hpp>
#include <jobspec/write_back.hpp>

#include <fmt/format.h>

#include "capi/handles.hpp"


using namespace jobspec::capi;

extern "C" {

const char* jobspec_version(void) {
    return jobspec::library_version();
}

char* jobspec_read_file(const char* path, const jobspec_options* options, jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(path, "path", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto text = jobspec::read_input(path, {o.limits, false});
        if (!succeeded(text, o, {}, error))
            return nullptr;
        if (const auto nul = text.value().find('\0'); nul != std::string::npos) {
            set_error(error, jobspec::Code::io_unreadable,
                      fmt::format("cannot read '{}': a NUL byte at offset {}; not a text file",
                                  jobspec::input_name(path), nul));
            return nullptr;
        }
        return new_text(text.value(), error);
    });
}

char* jobspec_shape_to_json(const char* shape, const jobspec_options* options,
                            jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(shape, "shape", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto result = jobspec::compile_shape(shape, {o.default_label, o.limits});
        if (!succeeded(result, o, shape, error))
            return nullptr;
        return new_text(jobspec::to_json_text(result.value(), o.counts, o.pretty), error);
    });
}

char* jobspec_compile(const char* command, const char* const* words, size_t count,
                      const char* script, const jobspec_options* options, jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(command, "command", error) || (count > 0 && !require(words, "words", error)))
            return nullptr;
        jobspec::SubmitOptions start;
        if (const auto named = jobspec::submit_command_named(command))
            start.command = *named;
        else {
            set_error(error, jobspec::Code::api_invalid_argument,
                      fmt::format("command '{}' is not run, submit, batch or alloc", command));
            return nullptr;
        }
        std::vector<std::string> list;
        for (size_t i = 0; i < count; ++i) {
            if (!require(words[i], "a word", error))
                return nullptr;
            list.emplace_back(words[i]);
        }
        const auto& o = options_or_default(options);
        jobspec::SubmitContext context = jobspec::current_submit_context();
        context.limits = o.limits;
        context.dialect = o.dialect;
        auto parsed = jobspec::read_submission(
            list, start, context,
            script != nullptr ? std::optional<std::string_view>(script) : std::nullopt);
        if (!succeeded(parsed, o, {}, error))
            return nullptr;
        auto result = jobspec::compile_submission(parsed.value(), context);
        if (!succeeded(result, o, {}, error))
            return nullptr;
        return new_text(o.pretty ? jobspec::to_json_text(result.value(), true)
                                 : jobspec::to_flux_json_text(result.value()) + "\n",
                        error);
    });
}

char* jobspec_check(const char* document, const jobspec_options* options, jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(document, "document", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto result = jobspec::read_jobspec(document, o.read_options());
        if (!succeeded(result, o, document, error))
            return nullptr;
        return new_text(
            jobspec::to_json_text(jobspec::to_json_value(result.value(), o.counts), o.pretty),
            error);
    });
}

char* jobspec_shape_of(const char* document, const jobspec_options* options,
                       jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(document, "document", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto read = jobspec::read_jobspec(document, o.read_options());
        if (!succeeded(read, o, document, error))
            return nullptr;
        auto written = jobspec::shape_of(read.value().resources, o.default_label, "/resources");
        if (!succeeded(written, o, document, error))
            return nullptr;
        return new_text(written.value().text, error);
    });
}

bool jobspec_validate(const char* document, const jobspec_options* options, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(document, "document", error))
            return false;
        const auto& o = options_or_default(options);
        auto result = jobspec::read_jobspec(document, o.read_options());
        return succeeded(result, o, document, error);
    });
}

char* jobspec_dependency_to_json(const char* uri, const jobspec_options* options,
                                 jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(uri, "uri", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto result = jobspec::parse_dependency(uri, {o.allow_unknown_scheme, o.limits});
        if (!succeeded(result, o, uri, error))
            return nullptr;
        return new_text(jobspec::to_json_text(jobspec::to_json_value(result.value()), o.pretty),
                        error);
    });
}

bool jobspec_id_decode(const char* text, uint64_t* id, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(text, "text", error) || !require(id, "id", error))
            return false;
        auto result = jobspec::parse_fluid(text);
        if (!succeeded(result, options_or_default(nullptr), text, error))
            return false;
        *id = result.value().id;
        return true;
    });
}

char* jobspec_id_encode(uint64_t id, const char* encoding, jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(encoding, "encoding", error))
            return nullptr;
        const auto e = jobspec::encoding_from_name(encoding);
        if (!e) {
            set_error(error, jobspec::Code::api_invalid_argument,
                      std::string("unknown encoding '") + encoding + "'");
            return nullptr;
        }
        return new_text(jobspec::encode_fluid(id, *e), error);
    });
}

} // extern "C"
