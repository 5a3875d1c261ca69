// Writing resource lists as canonical JSON or YAML.
#pragma once

#include <cstdint>
#include <string>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/constraint_model.hpp>
#include <jobspec/dependency_model.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_graph.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/workflow_model.hpp>

namespace jobspec {

/// How range and idset counts are written: RFC 14 dictionaries ({"min": 2}) and idset
/// strings, or RFC 45/22 strings for both ("2+"), as flux-core's Python parser does.
enum class CountStyle : std::uint8_t { dict, string };

struct EmitOptions {
    CountStyle counts = CountStyle::dict;
    /// Indented, one key per line (JSON only; YAML is always block style).
    bool pretty = false;
};

/// The resource list as a JSON array, keys in canonical order: type, count, label,
/// unit, exclusive, other keys in source order, with. Its memory comes from `storage`
/// (a boost::json::monotonic_resource makes destroying the value free).
JOBSPEC_API boost::json::value to_json_value(const ResourceList& resources,
                                             CountStyle counts = CountStyle::dict,
                                             boost::json::storage_ptr storage = {});

/// The resource list's JSON text, exactly to_json_text(to_json_value(resources, counts),
/// pretty); compact text is written without building the JSON value first (about six
/// times as fast).
JOBSPEC_API std::string to_json_text(const ResourceList& resources,
                                     CountStyle counts = CountStyle::dict, bool pretty = false);

/// A whole jobspec as a JSON object: version, resources, tasks, attributes; each task as
/// command, slot, count, then distribution and attributes when present.
JOBSPEC_API boost::json::value to_json_value(const Jobspec& jobspec,
                                             CountStyle counts = CountStyle::dict);

/// A dependency as its RFC 26 object: scheme, value, then the options in order.
JOBSPEC_API boost::json::value to_json_value(const Dependency& dependency);

/// A resolved workflow: {"jobs": [{name, id (f58), user | external}], "edges": [{from,
/// to, scheme, value}], "order": [names in an order they may run]}.
JOBSPEC_API boost::json::value to_json_value(const Workflow& workflow);

/// A resolved workflow as a Graphviz digraph: a box per job (dashed when external), an
/// edge per dependency labelled scheme:value.
JOBSPEC_API std::string to_dot(const Workflow& workflow);

/// A resource list as a Graphviz digraph: a box per vertex labelled "type ×count"
/// (counts in RFC 45 form: "2+", "3-30"), with its unit and other keys; exclusive
/// vertices bold; each slot a cluster labelled "slot LABEL ×count" around what it holds.
JOBSPEC_API std::string to_dot(const ResourceList& resources);

/// A jobspec's resources as above, with each task (command and count) hanging from the
/// slot it names.
JOBSPEC_API std::string to_dot(const Jobspec& jobspec);

/// A resource set as R version 1: R_lite entries (one per group of ranks with the same
/// cores and GPUs, in rank order), one compressed nodelist hostlist, properties, nslots,
/// starttime and expiration (0 when unset), and scheduling when present.
JOBSPEC_API boost::json::value to_json_value(const ResourceSet& set);

/// Fluxion's resource graph as JGF, as Fluxion's writer writes it: each vertex's id and
/// metadata (type, basename, name, id, uniq_id, rank, exclusive, unit when set, size,
/// status when down, properties when any, paths), its containment edges bare, in vertex
/// order, and the other subsystems' edges with their subsystem.
JOBSPEC_API boost::json::value to_json_value(const FluxionGraph& graph);

/// A constraint as its RFC 31 object; an `and` with no constraints is written {}.
JOBSPEC_API boost::json::value to_json_value(const Constraint& constraint);

/// JSON text of any value: compact, or indented by two spaces when `pretty`. Doubles are
/// written in their shortest round-trip form; infinities and NaN, which JSON cannot
/// write, become null (the readers never produce them). Always ends with a newline.
JOBSPEC_API std::string to_json_text(const boost::json::value& value, bool pretty = false);

/// `value` as Python's json.dumps(value, ensure_ascii=False) writes it, as flux's --dry-run
/// prints a jobspec: ", " and ": " separators, non-ASCII raw, floats in Python's repr
/// (300.0, 1e-05, NaN); no newline.
JOBSPEC_API std::string to_flux_json_text(const boost::json::value& value);

/// YAML text (block style) of any JSON value; strings that YAML would read as another
/// type are quoted. Always ends with a newline.
JOBSPEC_API std::string to_yaml_text(const boost::json::value& value);

} // namespace jobspec
