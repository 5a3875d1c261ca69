// Submission lowering: the options of flux run, submit, batch and alloc -> the Jobspec
// model, built as flux-core 0.88 builds its jobspec, each option's value lowered once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/submit_options.hpp>

#include "lower/submission_sources.hpp"

namespace jobspec::lower {

/// Where the jobspec's resources came from.
enum class SubmissionResources : std::uint8_t {
    layout, ///< flux's layout of -n, -N, -c, -g, -x and the per-resource options
    shape,  ///< --resources-shape
    file,   ///< --resources-json
};

/// A submission lowered: the jobspec, and what emitting and reporting need besides.
struct Submission {
    Jobspec jobspec;
    SubmissionResources resources_from = SubmissionResources::layout;
    /// --resources-json: the resources as the file has them, which flux prints as given.
    std::optional<boost::json::value> resources_as_written;
    /// The options parts of the jobspec were read from.
    SubmissionSources sources;
    /// The caller's environment variables that were not UTF-8 and were repaired (each
    /// byte that is not became U+FFFD), by their repaired names.
    std::vector<std::string> repaired;
};

/// The jobspec `flux <options.command> --dry-run` builds, in the model: resources and
/// task from the layout options (or a shape, or a file), then the attributes in the
/// order flux sets them. Shapes, --requires queries and --dependency URIs go through
/// their syntax and lower stages; -S/-o values are lowered where they are set (a typed
/// system attribute by its type, flux's dotted paths into dictionaries and
/// environments); files come through context.read_file. In Fluxion's dialect what its
/// reader refuses in the resources is reported too (fluxion.*). Nothing, with
/// submit.value, submit.layout, submit.file, limit.*, shape.*, query.*, jobspec.* or
/// constraint.* diagnostics, when an option is wrong; the sema passes are the caller's.
std::optional<Submission> lower_submission(const SubmitOptions& options,
                                           const SubmitContext& context, Diagnostics& diagnostics);

} // namespace jobspec::lower
