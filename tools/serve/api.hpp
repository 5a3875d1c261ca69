// The playground's JSON API, /api/v1/... (docs/PLAYGROUND.md): compile, tokens, tree,
// graph, match, explain and languages. Pure computation on the request: no file, no shell;
// Graphviz is the one program it runs, with a time limit.
#pragma once

#include <chrono>

#include <jobspec/limits.hpp>

#include "http_server.hpp"

namespace jobspec::serve {

struct ApiOptions {
    /// Applied to every text compiled (max_input_bytes, max_depth, max_diagnostics...).
    Limits limits;
    /// The longest Graphviz may take for one picture (less when the request's own
    /// deadline is nearer).
    std::chrono::milliseconds dot_timeout{5000};
    /// Flux's configuration (a directory's *.toml files, or one file) that match finds
    /// the job's queue in (`jobspec serve --config`); empty: none.
    std::string config;
};

/// Answers a request whose path starts with /api/. Diagnostics in the answers are exactly
/// jobspec::diagnostics_to_json of what the CLI reports; problems with the request itself
/// (bad JSON, an unknown language or option, a wrong method) are 4xx with {"error": TEXT}.
HttpResponse answer_api(const HttpRequest& request, const ApiOptions& options);

} // namespace jobspec::serve
