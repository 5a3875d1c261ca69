// Jobspec documents (RFC 14 canonical, RFC 25 V1): reading and checking them. The model
// they are read into is <jobspec/jobspec_model.hpp>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Reads a jobspec document (YAML or JSON) and runs the canonical RFC 14 pass, and with
/// `v1` the RFC 25 pass too; in the Fluxion dialect, by Fluxion's rules (Dialect). Every
/// problem found is reported at once: jobspec.*, v1.*, fluxion.* and limit.* diagnostics
/// with a JSON pointer and, where the reader knows it, the byte range in `text` (YAML:
/// every node; JSON: keys, strings and numbers). Warnings (unknown system attributes,
/// unknown vertex keys) come with a value.
JOBSPEC_API Result<Jobspec> read_jobspec(std::string_view text, const ReadOptions& options = {});

/// The canonical pass over a jobspec built in code (and the V1 pass with `v1`), after
/// checking that every string in it is UTF-8: a jobspec with one that is not gets only
/// jobspec.invalid-utf8 (the passes after would quote it). In the Fluxion dialect
/// (Jobspec::dialect) it leaves out the label rules Fluxion does not have (the reader's own
/// rules need the text).
JOBSPEC_API Diagnostics check_jobspec(const Jobspec& jobspec, bool v1 = false);

} // namespace jobspec
