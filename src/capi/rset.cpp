// The C API's resource sets (RFC 20 R).
#include <string_view>

#include <jobspec/resource_config.hpp>

#include "capi/handles.hpp"

using namespace jobspec::capi;

namespace {

const jobspec::ResourceSet& value(const jobspec_rset* r) {
    static const jobspec::ResourceSet empty;
    return r != nullptr ? r->value : empty;
}

} // namespace

extern "C" {

jobspec_rset* jobspec_rset_read(const char* json, const jobspec_options* options,
                                jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        if (!require(json, "json", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto result = jobspec::read_resource_set(json, o.limits);
        if (!succeeded(result, o, json, error))
            return nullptr;
        return new jobspec_rset{std::move(result).value()};
    });
}

jobspec_rset* jobspec_rset_parse_config(const char* path, const jobspec_options* options,
                                        jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        if (!require(path, "path", error))
            return nullptr;
        const auto& o = options_or_default(options);
        auto result = jobspec::read_resource_config_at(path, o.limits);
        if (!succeeded(result, o, {}, error))
            return nullptr;
        return new jobspec_rset{std::move(result).value()};
    });
}

void jobspec_rset_free(jobspec_rset* r) {
    delete r;
}

char* jobspec_rset_json(const jobspec_rset* r, const jobspec_options* options) {
    return guarded<char*>(nullptr, [&] {
        return new_text(jobspec::to_json_text(jobspec::to_json_value(value(r)),
                                              options_or_default(options).pretty));
    });
}

char* jobspec_rset_summary(const jobspec_rset* r) {
    return guarded<char*>(nullptr, [&] { return new_text(value(r).summary()); });
}

uint64_t jobspec_rset_count(const jobspec_rset* r, const char* type) {
    const std::string_view t = type != nullptr ? type : "";
    if (t == "rank")
        return value(r).count_ranks();
    if (t == "core")
        return value(r).count_cores();
    if (t == "gpu")
        return value(r).count_gpus();
    return 0;
}

jobspec_idset* jobspec_rset_ranks(const jobspec_rset* r) {
    return make<jobspec_idset>([&] { return value(r).ranks(); });
}

jobspec_hostlist* jobspec_rset_nodelist(const jobspec_rset* r) {
    return make<jobspec_hostlist>([&] { return value(r).nodelist(); });
}

bool jobspec_rset_includes(const jobspec_rset* a, const jobspec_rset* b) {
    return guarded(false, [&] { return value(a).includes(value(b)); });
}

jobspec_rset* jobspec_rset_filter(const jobspec_rset* r, const jobspec_idset* ranks) {
    return make<jobspec_rset>(
        [&] { return value(r).filtered(ranks != nullptr ? ranks->value : jobspec::IdSet{}); });
}

jobspec_rset* jobspec_rset_union(const jobspec_rset* a, const jobspec_rset* b,
                                 jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        auto result = value(a).appended(value(b));
        if (!succeeded(result, options_or_default(nullptr), {}, error))
            return nullptr;
        return new jobspec_rset{std::move(result).value()};
    });
}

jobspec_rset* jobspec_rset_intersect(const jobspec_rset* a, const jobspec_rset* b) {
    return make<jobspec_rset>([&] { return value(a).intersected(value(b)); });
}

jobspec_rset* jobspec_rset_difference(const jobspec_rset* a, const jobspec_rset* b) {
    return make<jobspec_rset>([&] { return value(a).without(value(b)); });
}

} // extern "C"
