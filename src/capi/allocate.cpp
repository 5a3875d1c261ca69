// The C API's allocation of R for a jobspec (jobspec match).
#include <jobspec/match.hpp>

#include "capi/handles.hpp"

using namespace jobspec::capi;

extern "C" {

jobspec_rset* jobspec_allocate_now(const char* document, const jobspec_rset* r,
                                   const jobspec_rset* free, const jobspec_options* options,
                                   jobspec_error** error) {
    return guarded<jobspec_rset*>(error, nullptr, [&]() -> jobspec_rset* {
        if (!require(document, "document", error) || !require(r, "r", error))
            return nullptr;
        const auto& o = options_or_default(options);
        jobspec::MatchOptions match;
        match.read = o.read_options();
        match.config = o.config;
        if (!o.config_json.empty())
            match.config_files.push_back({"config.json", o.config_json});
        match.queue = o.queue;
        match.max_steps = o.max_match_steps;
        if (free != nullptr)
            match.free = free->value;
        auto allocation = jobspec::match_jobspec(document, r->value, match);
        if (!succeeded(allocation, o, document, error))
            return nullptr;
        return new jobspec_rset{std::move(allocation).value()};
    });
}

jobspec_rset* jobspec_allocate(const char* document, const jobspec_rset* r,
                               const jobspec_options* options, jobspec_error** error) {
    return jobspec_allocate_now(document, r, nullptr, options, error);
}

} // extern "C"
