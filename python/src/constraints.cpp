// Constraints (RFC 31/35), dependencies (RFC 26) and job ids (RFC 19).
#include <optional>
#include <string>

#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/write_back.hpp>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

Constraint query(std::string_view text, const std::optional<std::string>& default_operator) {
    QueryOptions options;
    options.default_operator = default_operator;
    return take(without_gil([&] { return parse_constraint_query(text, options); }), text);
}

/// A constraint given as an RFC 31 object (a dict) or as its JSON text.
Constraint checked(py::handle constraint) {
    if (PyUnicode_Check(constraint.ptr())) {
        const auto text = constraint.cast<std::string_view>();
        return take(without_gil([&] { return read_constraint(text); }), text);
    }
    const boost::json::value value = to_json(constraint);
    return take(without_gil([&] { return constraint_from_json(value); }), "");
}

FluidEncoding encoding(std::string_view name) {
    const auto e = encoding_from_name(name);
    if (!e)
        throw py::value_error("unknown job id encoding '" + std::string(name) +
                              "' (dec, hex, dothex, kvs, f58, f58plain, words, emoji)");
    return *e;
}

} // namespace

void bind_constraints(py::module_& m) {
    m.def("_constraint", [](std::string_view text, std::optional<std::string> default_operator) {
        return to_python(to_json_value(query(text, default_operator)));
    });
    m.def("_check_constraint",
          [](py::handle constraint) { return to_python(to_json_value(checked(constraint))); });
    m.def("_query_of", [](py::handle constraint, std::string_view pointer) {
        const Constraint c = checked(constraint);
        return to_python(take(without_gil([&] { return query_of(c, pointer); }), ""));
    });
    m.def("_match", [](py::handle constraint, bool is_query, const ResourceSet& r) {
        const Constraint c = is_query ? query(constraint.cast<std::string_view>(), std::nullopt)
                                      : checked(constraint);
        return take(without_gil([&] { return c.match(r); }), "");
    });
    m.def("_dependency", [](std::string_view uri, bool allow_unknown_scheme) {
        DependencyOptions options;
        options.allow_unknown_scheme = allow_unknown_scheme;
        auto d = take(without_gil([&] { return parse_dependency(uri, options); }), uri);
        return to_python(to_json_value(d));
    });
    m.def("_decode_jobid", [](std::string_view text) {
        const DecodedFluid id = take(parse_fluid(text), text);
        return py::make_tuple(id.id, std::string(encoding_name(id.encoding)));
    });
    m.def("_encode_jobid",
          [](std::uint64_t id, std::string_view name) { return encode_fluid(id, encoding(name)); });
    m.def("_jobid_encoding",
          [](std::string_view text) { return std::string(encoding_name(detect_encoding(text))); });
}

} // namespace jobspec::python
