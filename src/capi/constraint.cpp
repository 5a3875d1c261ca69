// The C API's constraints: RFC 35 queries, RFC 31 objects, and matching them against R.
#include "capi/handles.hpp"

#include <jobspec/write_back.hpp>

using namespace jobspec::capi;

namespace {

/// A handle for a constraint result, or NULL with its diagnostics.
jobspec_constraint* constraint_handle(jobspec::Result<jobspec::Constraint> result,
                                      const jobspec_options& options, const char* source,
                                      jobspec_error** error) {
    if (!succeeded(result, options, source, error))
        return nullptr;
    return new jobspec_constraint{std::move(result).value()};
}

} // namespace

extern "C" {

jobspec_constraint* jobspec_constraint_parse(const char* query, const jobspec_options* options,
                                             jobspec_error** error) {
    return guarded<jobspec_constraint*>(error, nullptr, [&]() -> jobspec_constraint* {
        if (!require(query, "query", error))
            return nullptr;
        const auto& o = options_or_default(options);
        return constraint_handle(
            jobspec::parse_constraint_query(query, {o.default_operator, o.limits}), o, query,
            error);
    });
}

jobspec_constraint* jobspec_constraint_read(const char* json, const jobspec_options* options,
                                            jobspec_error** error) {
    return guarded<jobspec_constraint*>(error, nullptr, [&]() -> jobspec_constraint* {
        if (!require(json, "json", error))
            return nullptr;
        const auto& o = options_or_default(options);
        return constraint_handle(jobspec::read_constraint(json, o.limits), o, json, error);
    });
}

void jobspec_constraint_free(jobspec_constraint* constraint) {
    delete constraint;
}

char* jobspec_constraint_json(const jobspec_constraint* constraint,
                              const jobspec_options* options) {
    if (constraint == nullptr)
        return nullptr;
    return guarded<char*>(nullptr, [&] {
        return new_text(jobspec::to_json_text(jobspec::to_json_value(constraint->value),
                                              options_or_default(options).pretty));
    });
}

char* jobspec_constraint_query(const jobspec_constraint* constraint, jobspec_error** error) {
    return guarded<char*>(error, nullptr, [&]() -> char* {
        if (!require(constraint, "constraint", error))
            return nullptr;
        auto written = jobspec::query_of(constraint->value);
        if (!succeeded(written, options_or_default(nullptr), {}, error))
            return nullptr;
        return new_text(written.value().text, error);
    });
}

jobspec_idset* jobspec_constraint_match(const jobspec_constraint* constraint, const jobspec_rset* r,
                                        jobspec_error** error) {
    return guarded<jobspec_idset*>(error, nullptr, [&]() -> jobspec_idset* {
        if (!require(constraint, "constraint", error) || !require(r, "r", error))
            return nullptr;
        auto result = constraint->value.match(r->value);
        if (!succeeded(result, options_or_default(nullptr), {}, error))
            return nullptr;
        return new jobspec_idset{std::move(result).value()};
    });
}

} // extern "C"
