// What the C API's opaque handles hold, and the helpers every C entry point shares.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/constraint.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/jobspec.h>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

struct jobspec_error {
    /// Where a diagnostic is, resolved once against the source (-1 and 0s when unknown).
    struct Position {
        std::int64_t offset = -1;
        std::size_t length = 0;
        std::size_t line = 0;
        std::size_t column = 0;
    };
    jobspec::Diagnostics diagnostics;
    /// One per diagnostic, in the same order.
    std::vector<Position> positions;
    /// The text the offsets point into, for rendering.
    std::string source;
};

struct jobspec_options {
    std::string default_label = "default";
    jobspec::CountStyle counts = jobspec::CountStyle::dict;
    bool v1 = false;
    jobspec::Dialect dialect = jobspec::Dialect::rfc;
    jobspec::DocumentFormat format = jobspec::DocumentFormat::automatic;
    std::optional<std::string> default_operator;
    bool allow_unknown_scheme = false;
    bool strict = false;
    bool pretty = false;
    /// "flux-instance": checked for a Flux instance, of this many ranks (0: unknown).
    bool flux_instance = false;
    std::uint64_t flux_instance_size = 0;
    /// Flux's configuration and the queue a job is submitted to (jobspec_allocate).
    std::string config;
    /// Flux's configuration as one JSON object's text, used when `config` is empty.
    std::string config_json;
    std::string queue;
    /// "max-match-steps": jobspec_allocate's step budget (none: no limit).
    std::optional<std::uint64_t> max_match_steps;
    jobspec::Limits limits;

    /// How a jobspec document is read under these options.
    jobspec::ReadOptions read_options() const {
        return {format, v1, limits, dialect, flux_instance, flux_instance_size};
    }
};

struct jobspec_idset {
    jobspec::IdSet value;
};

struct jobspec_hostlist {
    jobspec::Hostlist value;
};

struct jobspec_rset {
    jobspec::ResourceSet value;
};

struct jobspec_constraint {
    jobspec::Constraint value;
};

namespace jobspec::capi {

/// The options to use: the caller's, or the defaults for NULL.
const jobspec_options& options_or_default(const jobspec_options* options);

/// Stores a new error holding `diagnostics` (offsets into `source`) in *error, when
/// error is not NULL. Never throws: without memory for it, *error is NULL.
void set_error(jobspec_error** error, Diagnostics diagnostics,
               std::string_view source = {}) noexcept;

/// Stores an error with one diagnostic; never throws either.
void set_error(jobspec_error** error, Code code, std::string_view message) noexcept;

/// A copy of `text` the caller frees with jobspec_free, or NULL without memory (and then
/// an api.internal error in *error, in the second form).
char* new_text(std::string_view text) noexcept;
char* new_text(std::string_view text, jobspec_error** error) noexcept;

/// Whether `result` counts as a success under `options` (with "strict", warnings fail);
/// when it does not, stores its diagnostics in *error.
template <class T>
bool succeeded(Result<T>& result, const jobspec_options& options, std::string_view source,
               jobspec_error** error) {
    if (result.ok() && !(options.strict && !result.diagnostics().empty()))
        return true;
    Diagnostics diagnostics = std::move(result).diagnostics();
    if (options.strict)
        diagnostics.promote_warnings();
    set_error(error, std::move(diagnostics), source);
    return false;
}

/// Fails with api.invalid-argument ("WHAT is NULL") when `argument` is NULL.
bool require(const void* argument, const char* what, jobspec_error** error);

/// Runs `body` (which returns the call's result) with *error cleared first; an exception
/// becomes an api.internal error and the result `failed`.
template <class R, class Body>
R guarded(jobspec_error** error, R failed, Body&& body) noexcept {
    if (error != nullptr)
        *error = nullptr;
    try {
        return body();
    } catch (const std::exception& e) {
        set_error(error, Code::api_internal, e.what());
    } catch (...) {
        set_error(error, Code::api_internal, "unknown failure");
    }
    return failed;
}

/// Runs `body` for a call that cannot report errors: an exception gives `failed`.
template <class R, class Body>
R guarded(R failed, Body&& body) noexcept {
    try {
        return body();
    } catch (...) {
        return failed;
    }
}

/// A new handle holding what `f` returns, or NULL when that throws.
template <class Handle, class F>
Handle* make(F&& f) noexcept {
    // NOLINTNEXTLINE(bugprone-unhandled-exception-at-new): guarded catches it
    return guarded<Handle*>(nullptr, [&] { return new Handle{f()}; });
}

} // namespace jobspec::capi
