// Reading R (RFC 20 version 1): from text, a stream of documents, or a JSON value.
#pragma once

#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Reads R (RFC 20, version 1) from JSON text. Checks and reports (R.* with a JSON
/// pointer): the version, the shape of execution, R_lite entries and their idsets, the
/// nodelist (required) with its hostlists and one host per rank, property names and
/// ranks, nslots > 0, expiration after starttime. A rank listed in several R_lite
/// entries has the resources of all of them, which must not share a core or GPU
/// (R.overlap). Unknown keys are warnings; `scheduling` is kept as it is.
JOBSPEC_API Result<ResourceSet> read_resource_set(std::string_view text, const Limits& limits = {});

/// Every R document in `text`, one after another (as `flux R` reads its standard input),
/// each read as read_resource_set reads one; nothing but white space between them. Fails
/// at the first document with an error; diagnostics point into the whole text.
JOBSPEC_API Result<std::vector<ResourceSet>> read_resource_sets(std::string_view text,
                                                                const Limits& limits = {});

/// The same, from a JSON value already parsed (diagnostics have pointers, no ranges).
JOBSPEC_API Result<ResourceSet> resource_set_from_json(const boost::json::value& r);

} // namespace jobspec
