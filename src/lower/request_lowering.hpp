// A job request (srun-style options, attributes set by name) -> the Jobspec model.
#pragma once

#include <jobspec/compile.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/document.hpp>

namespace jobspec::lower {

/// The resources and task count -N/-n/-c/-g/-x ask for, as RFC 25's use cases show them
/// (see compile_jobspec), into `jobspec` and `task`. Fails (false) with jobspec.request
/// for requests that make no sense.
bool lower_request_resources(const JobRequest& request, Jobspec& jobspec, Task& task,
                             Diagnostics& diagnostics);

/// The attributes a request sets: duration, cwd, environment (a later name replaces an
/// earlier one), dependencies (the begin-time one last), constraints, then each
/// dotted-path attribute in order, read into its type as a document's would be.
/// Reports jobspec.request for a path with an empty part or into a typed attribute, and
/// what lower_attribute reports for a value of the wrong type.
Attributes lower_request_attributes(const JobRequest& request, Diagnostics& diagnostics);

} // namespace jobspec::lower
