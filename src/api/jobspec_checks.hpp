// The passes a Jobspec model goes through, listed once and in one order, whichever door it
// came in by: read from a document, built in code, or lowered from a submission.
#pragma once

#include <cstdint>
#include <optional>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::api {

/// Which passes a model gets. The door decides, by what its input has already been
/// through: a document's reader has checked UTF-8 and the attributes' structure, a model
/// built in code has been through neither.
struct JobspecChecks {
    /// Check attribute values as if they had been read (a model built in code).
    bool attribute_structure = false;
    /// Check that every string is UTF-8; with a fault there, no later pass runs (each
    /// would quote text that cannot be printed).
    bool text_encoding = false;
    /// The size limits (limit.*), when the input had them.
    const Limits* limits = nullptr;
    /// The RFC 25 V1 pass.
    bool v1 = false;
    /// Run the V1 pass only on a model with no error so far (a submission, whose
    /// canonical errors would each come back as a V1 one too).
    bool v1_only_when_canonical = false;
    /// The Flux instance pass, with the instance's size (0: unknown).
    std::optional<std::uint64_t> flux_instance;
};

/// Runs the passes `checks` selects over `jobspec`, in this order: attribute structure,
/// text encoding, canonical (RFC 14), sizes, V1 (RFC 25), Flux instance. Adds what they
/// find to `diagnostics`.
void check_model(const Jobspec& jobspec, const JobspecChecks& checks, Diagnostics& diagnostics);

} // namespace jobspec::api
