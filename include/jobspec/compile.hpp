// Compiling a jobspec from what a user asks for: a shape, or srun-style options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/document.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// A job request as `srun`/`flux run` users state it (RFC 25's "Existing Equivalents"),
/// or as a shape plus a command.
struct JobRequest {
    /// -N: nodes. Without tasks, one task per node.
    std::optional<std::uint64_t> nodes;
    /// -n: tasks.
    std::optional<std::uint64_t> tasks;
    /// -c: cores per task.
    std::uint64_t cores_per_task = 1;
    /// -g: gpus per task.
    std::uint64_t gpus_per_task = 0;
    /// -x: nodes exclusively (needs nodes).
    bool exclusive = false;
    /// An RFC 46 shape instead of nodes/cores/gpus/exclusive; with tasks, the task count
    /// is that total, else one task per slot.
    std::optional<std::string> shape;
    /// The label of the slot the options make (or of a shape's only slot without one).
    std::string slot_label = "default";
    std::vector<std::string> command;
    /// Seconds; 0 means unlimited.
    double duration = 0;
    std::optional<std::string> cwd;
    /// Environment variables in order (a later name replaces an earlier one).
    std::vector<std::pair<std::string, std::string>> environment;
    /// Attributes to set, by dotted path under attributes ("system.queue",
    /// "user.study.run"); a path without "system." or "user." means system.
    std::vector<std::pair<std::string, boost::json::value>> attributes;
    /// attributes.system.dependencies, in order (none: the key is left out, as RFC 26 says).
    std::vector<Dependency> dependencies;
    /// Seconds since the epoch: adds a begin-time dependency after the others.
    std::optional<double> begin_time;
    /// attributes.system.constraints.
    std::optional<Constraint> constraints;
    Limits limits;
};

/// Builds the jobspec for a request and checks it with the canonical pass, and with the
/// V1 pass when `v1` or when the resources come from options (they always make V1):
///   nodes only      node=N/slot=1/core=c[,gpu=g]          per_slot 1
///   tasks only      slot=n/core=c[,gpu=g]                 per_slot 1
///   nodes, tasks    node=N/slot=n/N/core=c[,gpu=g]        per_slot 1 when N divides n,
///                   node=N/slot=floor(n/N)/...            else total n
/// Requests that make no sense (-x without -N, -N above -n, a shape with -N, no command)
/// fail with jobspec.request; a bad shape fails with its shape.* diagnostics.
JOBSPEC_API Result<Jobspec> compile_jobspec(const JobRequest& request, bool v1 = false);

/// A duration in seconds from Flux Standard Duration: a non-negative number with an
/// optional unit s, m, h or d ("30s", "5m", "1.5h", "2d", "90"). Nothing when malformed.
JOBSPEC_API std::optional<double> parse_duration(std::string_view text);

/// A begin time in seconds since the epoch: a non-negative number ("1763805600.5"), or an
/// ISO-8601 date and time, "YYYY-MM-DD[(T| )hh:mm[:ss[.fff]]][Z|(+|-)hh:mm]", in UTC with
/// Z or an offset and in local time without. Nothing when malformed.
JOBSPEC_API std::optional<double> parse_begin_time(std::string_view text);

/// An attribute value as given on a command line: its JSON value when the text is JSON
/// ("4", "true", "[1,2]", "{\"a\":1}"), otherwise the text as a string.
JOBSPEC_API boost::json::value attribute_value(std::string_view text);

} // namespace jobspec
