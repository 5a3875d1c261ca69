// Jobspec documents (RFC 14 canonical, RFC 25 V1): the model, reading and checking.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/attributes.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_graph.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// How many copies of a task run (RFC 14): per slot, per resource of a type declared in
/// the slot, or in total across all slots.
struct TaskCount {
    enum class Kind : std::uint8_t { per_slot, per_resource, total };
    Kind kind = Kind::per_slot;
    std::uint64_t count = 1;
    /// The resource type, for per_resource.
    std::string resource_type;
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

/// A whole jobspec: the model that documents, shapes and command-line options all become.
struct Jobspec {
    std::int64_t version = 1;
    ResourceList resources;
    std::vector<Task> tasks;
    Attributes attributes;
    SourceRange range;
    SourceRange version_range;
};

enum class DocumentFormat : std::uint8_t {
    automatic, ///< JSON when the first non-blank character is '{' or '[', else YAML
    json,
    yaml,
};

struct ReadOptions {
    DocumentFormat format = DocumentFormat::automatic;
    /// Also run the RFC 25 V1 pass (v1.* diagnostics).
    bool v1 = false;
    Limits limits;
};

/// Reads a jobspec document (YAML or JSON) and runs the canonical RFC 14 pass, and with
/// `v1` the RFC 25 pass too. Every problem found is reported at once: jobspec.*, v1.* and
/// limit.* diagnostics with a JSON pointer and, where the reader knows it, the byte range
/// in `text` (YAML: every node; JSON: keys, strings and numbers). Warnings (unknown
/// system attributes, unknown vertex keys) come with a value.
JOBSPEC_API Result<Jobspec> read_jobspec(std::string_view text, const ReadOptions& options = {});

/// The canonical pass over a jobspec built in code (and the V1 pass with `v1`), after
/// checking that every string in it is UTF-8 (jobspec.invalid-utf8).
JOBSPEC_API Diagnostics check_jobspec(const Jobspec& jobspec, bool v1 = false);

} // namespace jobspec
