// The jobspec model (RFC 14): what documents, shapes and command-line options all become.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/attributes.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_graph.hpp>

namespace jobspec {

/// How many copies of a task run (RFC 14): per slot, per resource of a type declared in
/// the slot, or in total across all slots.
struct TaskCount {
    enum class Kind : std::uint8_t { per_slot, per_resource, total };
    Kind kind = Kind::per_slot;
    std::uint64_t count = 1;
    /// The resource type, for per_resource.
    std::string resource_type;
    /// How many keys the count was written with: RFC 25 allows exactly one (its schema's
    /// maxProperties), where RFC 14 ignores the others with a warning. 1 when built in code.
    std::size_t keys = 1;
};

/// One task descriptor (RFC 14 "tasks"). Ranges are byte offsets into the source text,
/// unknown when the task was not read from text.
struct Task {
    std::vector<std::string> command;
    /// The label of the slot the task runs in (RFC 14 requires one, and it must match a
    /// slot's label: "" matches no slot unless one is labelled ""). Nothing when a
    /// document's task has no 'slot' or a 'slot' that is not a string, which reading
    /// reports; the canonical pass then reports nothing more about it.
    std::optional<std::string> slot;
    TaskCount count;
    std::optional<std::string> distribution;
    /// The task's attributes: `environment` as an Environment, others as JSON.
    std::optional<AttributeList> attributes;
    SourceRange range;
    SourceRange command_range;
    SourceRange slot_range;
    SourceRange count_range;
};

/// How a jobspec document is written.
enum class DocumentFormat : std::uint8_t {
    automatic, ///< JSON when the first non-blank character is '{' or '[', else YAML
    json,
    yaml,
};

/// Whose rules a jobspec document is read by.
enum class Dialect : std::uint8_t {
    /// RFC 14 (and RFC 25 with ReadOptions::v1).
    rfc,
    /// What Fluxion (flux-sched's jobspec reader) accepts: versions 1 to 9999; slots that
    /// share a label and task slots that name no label (Fluxion reads neither: sibling
    /// slots are the alternatives of its flexible traverser, and `xor_slot` vertices its
    /// exclusive alternatives); integer `ranks` in constraints. And what it refuses that
    /// RFC 14 allows, as fluxion.* errors: keys outside its sets, counts written as
    /// strings of ranges or idsets, a count range with some but not all of max, operator
    /// and operand, `per_resource` task counts, task attributes that are not scalars.
    /// Where Fluxion accepts what RFC 14 forbids otherwise, RFC 14's rule stands
    /// (docs/COMPAT.md).
    fluxion,
};

/// A whole jobspec: the model that documents, shapes and command-line options all become.
struct Jobspec {
    std::int64_t version = 1;
    ResourceList resources;
    std::vector<Task> tasks;
    Attributes attributes;
    SourceRange range;
    SourceRange version_range;
    /// Whose rules it was read by: matching and the canonical pass follow them too.
    Dialect dialect = Dialect::rfc;
};

/// The dialect a name means ("rfc", "fluxion", as the tools and APIs spell them), or
/// nothing for any other name.
JOBSPEC_API std::optional<Dialect> dialect_named(std::string_view name) noexcept;

/// How a jobspec document is read (read_jobspec, read_workflow).
struct ReadOptions {
    DocumentFormat format = DocumentFormat::automatic;
    /// Also run the RFC 25 V1 pass (v1.* diagnostics).
    bool v1 = false;
    Limits limits;
    Dialect dialect = Dialect::rfc;
    /// Also refuse what a Flux instance (flux-core 0.88 with its scheduler) cannot hold,
    /// though RFC 14 allows it (flux.* diagnostics), and nesting deeper than
    /// flux_depth_ceiling (limit.depth): what jobspec's Flux plugins check.
    bool flux_instance = false;
    /// With flux_instance, how many ranks the instance has (its `size`): a `ranks`
    /// constraint naming a rank it does not have is refused too (flux.rank-range). 0:
    /// not known.
    std::uint64_t flux_instance_size = 0;

    /// The deepest nesting a Flux instance takes: its scheduler reads each job with
    /// Python's json module, whose recursion stops a little short of 1,000 levels.
    static constexpr std::size_t flux_depth_ceiling = 512;
};

} // namespace jobspec
