// jobspec: the whole C++ API in one include. Every header here also stands alone.
//
// Everything that can fail returns a Result<T> (the value, or the diagnostics saying
// why not; warnings ride along with a value); nothing throws across the API, and every
// function may be called from many threads at once.
#pragma once

#include <jobspec/attributes.hpp>     // jobspec attributes, typed
#include <jobspec/constraint.hpp>     // RFC 35 queries, RFC 31 constraints, matching R
#include <jobspec/count.hpp>          // RFC 14 counts, RFC 45 ranges
#include <jobspec/dependency.hpp>     // RFC 26 dependency URIs and objects
#include <jobspec/diagnostic.hpp>     // diagnostics: stable codes, locations
#include <jobspec/document.hpp>       // reading and checking jobspec (RFC 14, RFC 25 V1)
#include <jobspec/document_check.hpp> // an editor's documents: which kind, and their checks
#include <jobspec/emit.hpp>           // JSON, YAML and DOT out
#include <jobspec/match.hpp>          // does a jobspec fit an R?
#include <jobspec/fluid.hpp>          // RFC 19 job ids in seven encodings
#include <jobspec/forecast.hpp>       // when each pending job of an instance starts
#include <jobspec/grammar_view.hpp>   // tokens, parse trees: inside the parsers
#include <jobspec/hostlist.hpp>       // RFC 29 hostlists
#include <jobspec/idset.hpp>          // RFC 22 idsets
#include <jobspec/input.hpp>          // reading files and standard input within limits
#include <jobspec/jobspec_model.hpp>  // the jobspec model: resources, tasks, attributes
#include <jobspec/limits.hpp>         // input limits
#include <jobspec/render.hpp>         // diagnostics as text with carets, or JSON
#include <jobspec/resource_config.hpp> // Flux's [resource] configuration -> R
#include <jobspec/resource_graph.hpp> // the ResourceGraph IR
#include <jobspec/resource_set.hpp>   // RFC 20 R
#include <jobspec/result.hpp>         // Result<T>
#include <jobspec/shape.hpp>          // RFC 46 shapes
#include <jobspec/shape_cache.hpp>    // an opt-in cache of compiled shapes
#include <jobspec/submit.hpp>         // flux run/submit/batch/alloc options -> jobspec
#include <jobspec/submit_options.hpp> // a flux command line as read, and its context
#include <jobspec/suggest.hpp>        // "did you mean" for misspelt names
#include <jobspec/text.hpp>           // UTF-8 checks, terminal-safe text
#include <jobspec/version.hpp>        // the library's version
#include <jobspec/workflow.hpp>       // dependency graphs between jobs
#include <jobspec/write_back.hpp>     // a resource list as its shape, a constraint as its query
