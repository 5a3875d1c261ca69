// Shapes, jobspec documents, compiling a jobspec from options, and workflows.
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <fmt/format.h>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_graph.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>
#include <jobspec/workflow.hpp>
#include <jobspec/write_back.hpp>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

CountStyle count_style(std::string_view counts) {
    if (counts == "dict")
        return CountStyle::dict;
    if (counts == "string")
        return CountStyle::string;
    throw py::value_error("counts must be 'dict' or 'string', not '" + std::string(counts) + "'");
}

DocumentFormat document_format(std::string_view format) {
    if (format == "auto")
        return DocumentFormat::automatic;
    if (format == "json")
        return DocumentFormat::json;
    if (format == "yaml")
        return DocumentFormat::yaml;
    throw py::value_error("format must be 'auto', 'json' or 'yaml', not '" + std::string(format) +
                          "'");
}

Dialect dialect_of(std::string_view name) {
    if (const auto d = dialect_named(name))
        return *d;
    throw py::value_error("dialect must be 'rfc' or 'fluxion', not '" + std::string(name) + "'");
}

/// flux-core's count strings: a range or idset as written, without brackets and
/// whitespace ("1+:1" stays "1+:1", where RFC 45's canonical form is "1+").
void written_counts(const ResourceList& resources, boost::json::array& json,
                    std::string_view text) {
    for (std::size_t i = 0; i < resources.size() && i < json.size(); ++i) {
        const ResourceVertex& vertex = resources[i];
        auto& object = json[i].as_object();
        const SourceRange range = vertex.count_range;
        if (!vertex.count.is_fixed() && range.known() && range.end <= text.size()) {
            std::string written;
            for (const char c : text.substr(range.begin, range.size()))
                if (c != '[' && c != ']' && c != ' ' && c != '\t' && c != '\n' && c != '\r')
                    written += c;
            object["count"] = written;
        }
        if (auto* with = object.if_contains("with"); with != nullptr && with->is_array())
            written_counts(vertex.with, with->as_array(), text);
    }
}

/// The C++ half of jobspec.shape(), run without the GIL: the compiled list is freed here,
/// and `json` is made in its own memory resource; true with the warnings, or the errors.
Result<bool> shape_json(std::string_view text, const ShapeOptions& options, CountStyle style,
                        bool flux, boost::json::value& json) {
    auto compiled = compile_shape(text, options);
    if (!compiled.ok() || compiled.diagnostics().has_errors())
        return Result<bool>(std::move(compiled).diagnostics());
    json = to_json_value(compiled.value(), style, json.storage());
    if (flux && style == CountStyle::string)
        written_counts(compiled.value(), json.as_array(), text);
    return Result<bool>(true, std::move(compiled).diagnostics());
}

/// A JSON value whose memory is a stack buffer: a shape's value fits, and freeing it is free.
struct ScratchJson {
    std::array<unsigned char, 4096> buffer;
    boost::json::monotonic_resource memory{buffer.data(), buffer.size()};
    boost::json::value json = boost::json::value(boost::json::storage_ptr(&memory));
};

/// `flux`: flux-core's conventions (counts as written, no Python warnings). Only the
/// conversion to Python objects holds the GIL.
py::object shape(std::string_view text, const std::string& default_label, std::string_view counts,
                 bool strict, bool flux) {
    const CountStyle style = count_style(counts);
    ShapeOptions options;
    options.default_label = default_label;
    ScratchJson scratch;
    auto result = without_gil([&] { return shape_json(text, options, style, flux, scratch.json); });
    take(std::move(result), text, strict, flux);
    return to_python(scratch.json);
}

/// Limits from a mapping of their names ("max_input_bytes": 1 << 24, ...), or the
/// defaults for None. Raises ValueError for an unknown name or a value the limit does not
/// take, TypeError for a value that is not an int.
Limits limits_from(const py::object& mapping) {
    Limits limits;
    if (mapping.is_none())
        return limits;
    for (const auto& [key, value] : py::dict(mapping)) {
        if (!py::isinstance<py::str>(key))
            throw py::type_error("limits are named by str");
        const auto name = py::cast<std::string>(key);
        if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
            throw py::type_error("limit '" + name + "' is an int");
        const auto n = py::cast<py::int_>(value);
        if (n < py::int_(1) || n > py::int_(INT64_MAX) ||
            !limits.set(name, py::cast<std::uint64_t>(n)))
            throw py::value_error(fmt::format(
                "limits: '{}' is not max_input_bytes, max_depth (1 to {}), max_diagnostics "
                "(1 to {}), max_alias_nodes, max_vertices or max_constraint_terms with a "
                "positive value, or {} is out of range",
                name, Limits::depth_ceiling, Limits::diagnostics_ceiling,
                py::str(value).cast<std::string>()));
    }
    return limits;
}

/// flux_instance=: False, True, or the instance's size (a positive int). Raises
/// ValueError for another int, TypeError for another type.
void set_flux_instance(ReadOptions& options, const py::object& value) {
    if (py::isinstance<py::bool_>(value)) {
        options.flux_instance = value.cast<bool>();
        return;
    }
    if (!py::isinstance<py::int_>(value))
        throw py::type_error("flux_instance is a bool or the instance's size (an int)");
    const auto n = py::cast<py::int_>(value);
    if (n < py::int_(1) || n > py::int_(INT64_MAX))
        throw py::value_error("flux_instance: an instance's size is a positive int");
    options.flux_instance = true;
    options.flux_instance_size = py::cast<std::uint64_t>(n);
}

Result<Jobspec> read(std::string_view text, bool v1, std::string_view dialect,
                     std::string_view format, const py::object& flux_instance,
                     const py::object& limits) {
    ReadOptions options;
    options.v1 = v1;
    set_flux_instance(options, flux_instance);
    options.dialect = dialect_of(dialect);
    options.format = document_format(format);
    options.limits = limits_from(limits);
    return without_gil([&] { return read_jobspec(text, options); });
}

py::object read_document(std::string_view text, bool v1, std::string_view dialect,
                         std::string_view format, std::string_view counts, bool strict,
                         const py::object& flux_instance, const py::object& limits) {
    const CountStyle style = count_style(counts);
    const Jobspec jobspec =
        take(read(text, v1, dialect, format, flux_instance, limits), text, strict);
    return to_python(to_json_value(jobspec, style));
}

py::list validate_document(std::string_view text, bool v1, std::string_view dialect,
                           std::string_view format, const py::object& flux_instance,
                           const py::object& limits) {
    auto result = read(text, v1, dialect, format, flux_instance, limits);
    return diagnostic_objects(result.diagnostics(), text);
}

/// The warnings of a valid document, not issued; raises for an invalid one.
py::list check_document(std::string_view text, bool v1, std::string_view dialect,
                        std::string_view format, bool strict, const py::object& flux_instance,
                        const py::object& limits) {
    auto result = read(text, v1, dialect, format, flux_instance, limits);
    const Diagnostics diagnostics = result.diagnostics();
    take(std::move(result), text, strict, /*quiet=*/true);
    return warning_objects(diagnostics, text);
}

/// The shape of a jobspec's resources, and the span of each vertex in it. The document's
/// warnings are not the shape's: they are not issued.
py::tuple shape_of_document(std::string_view text, std::string_view dialect,
                            std::string_view format, const std::string& default_label) {
    const Jobspec jobspec =
        take(read(text, false, dialect, format, py::bool_(false), py::none()), text, false, true);
    return to_python(
        take(without_gil([&] { return shape_of(jobspec.resources, default_label, "/resources"); }),
             text));
}

SubmitCommand submit_command(std::string_view kind) {
    if (const auto command = submit_command_named(kind))
        return *command;
    throw py::value_error("kind is 'run', 'submit', 'batch' or 'alloc', not '" + std::string(kind) +
                          "'");
}

/// compile(): options given by name (`settings`, made by jobspec/__init__.py from keyword
/// arguments; `setattr` and `setopt` as (key, value) pairs whose values are set as JSON
/// values) through the one submission path `jobspec compile` takes. `script`: a batch
/// script's text, whose directives apply first (else batch reads the file the first
/// argument names). `environment`: what the job's environment is copied from instead of
/// this process's.
py::object compile(const std::vector<std::pair<std::string, std::optional<std::string>>>& settings,
                   const std::vector<std::pair<std::string, py::object>>& setattr,
                   const std::vector<std::pair<std::string, py::object>>& setopt,
                   const std::vector<std::string>& command, std::string_view kind,
                   std::optional<std::string> script, bool environment_none,
                   std::optional<std::vector<std::pair<std::string, std::string>>> environment,
                   bool strict, std::string_view dialect) {
    SubmitOptions start;
    start.command = submit_command(kind);
    start.environment_none = environment_none;
    for (const auto& [key, value] : setattr)
        start.setattr_values.emplace_back(key, to_json(value));
    for (const auto& [key, value] : setopt)
        start.setopt_values.emplace_back(key, to_json(value));
    std::vector<SubmitSetting> named;
    named.reserve(settings.size());
    for (const auto& [name, value] : settings)
        named.push_back({name, value});
    SubmitContext context = current_submit_context();
    if (environment)
        context.environment = std::move(*environment);
    context.dialect = dialect_of(dialect);
    auto options = without_gil([&] {
        return read_submission(named, command, start, context,
                               script ? std::optional<std::string_view>(*script) : std::nullopt);
    });
    const SubmitOptions parsed = take(std::move(options), "", strict);
    auto result = without_gil([&] { return compile_submission(parsed, context); });
    return to_python(take(std::move(result), "", strict));
}

py::object workflow(std::string_view text, bool strict) {
    auto result = without_gil([&] { return read_workflow(text); });
    return to_python(to_json_value(take(std::move(result), text, strict)));
}

} // namespace

void bind_documents(py::module_& m) {
    // Bound directly rather than wrapped in Python: it is the call made most often.
    m.def("shape", &shape, py::arg("text"), py::kw_only(), py::arg("default_label") = "default",
          py::arg("counts") = "dict", py::arg("strict") = false, py::arg("flux") = false,
          R"(Compiles an RFC 46 shape into its RFC 14 resource list.

default_label: the label of the only slot when it has none (flux-core uses "task").
counts: "dict" writes ranges as RFC 14 dicts ({"min": 2}), "string" as RFC 45
strings ("2+"), as flux-core's Python parser does. strict: warnings are errors.
flux: flux-core's conventions (counts as written, no warnings), for jobspec.compat.flux.
Raises jobspec.Error for an invalid shape, TypeError for a non-str.)");
    m.def("_read_jobspec", &read_document, py::arg("text"), py::arg("v1"), py::arg("dialect"),
          py::arg("format"), py::arg("counts"), py::arg("strict"), py::arg("flux_instance"),
          py::arg("limits"));
    m.def("_shape_of", &shape_of_document, py::arg("text"), py::arg("dialect"), py::arg("format"),
          py::arg("default_label"));
    m.def("_validate_jobspec", &validate_document, py::arg("text"), py::arg("v1"),
          py::arg("dialect"), py::arg("format"), py::arg("flux_instance"), py::arg("limits"));
    m.def("_check_jobspec", &check_document, py::arg("text"), py::arg("v1"), py::arg("dialect"),
          py::arg("format"), py::arg("strict"), py::arg("flux_instance"), py::arg("limits"));
    m.def("_compile", &compile, py::arg("settings"), py::arg("setattr"), py::arg("setopt"),
          py::arg("command"), py::arg("kind"), py::arg("script"), py::arg("environment_none"),
          py::arg("environment"), py::arg("strict"), py::arg("dialect"));
    m.def("_parse_duration", [](std::string_view text) { return parse_flux_duration(text); });
    m.def("_workflow", &workflow, py::arg("text"), py::arg("strict"));
    // For test/bench/python_bench.py: the C++ half of jobspec.shape alone, `iterations`
    // times without the GIL; returns seconds.
    m.def("_bench_shape", [](std::string_view text, std::size_t iterations) {
        return without_gil([&] {
            const auto start = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < iterations; ++i) {
                ScratchJson scratch;
                static_cast<void>(shape_json(text, {}, CountStyle::dict, false, scratch.json));
            }
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
    });
    m.def("_allocate", [](std::string_view jobspec_text, const ResourceSet& r,
                          std::string_view dialect, std::optional<ResourceSet> free,
                          std::optional<std::string> config, std::optional<std::string> config_json,
                          std::string_view queue, std::optional<std::uint64_t> max_steps) {
        MatchOptions options;
        options.max_steps = max_steps;
        options.read.dialect = dialect_of(dialect);
        options.free = std::move(free);
        options.config = config.value_or("");
        if (config_json)
            options.config_files.push_back({"config.json", std::move(*config_json)});
        options.queue = queue;
        return take(without_gil([&] { return match_jobspec(jobspec_text, r, options); }),
                    jobspec_text);
    });
}

} // namespace jobspec::python
