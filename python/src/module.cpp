// The compiled half of the `jobspec` package; jobspec/__init__.py is the public face.
#include <jobspec/diagnostic.hpp>
#include <jobspec/render.hpp>
#include <jobspec/text.hpp>
#include <jobspec/version.hpp>

#include "bindings.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_jobspec, m) {
    m.doc() = "jobspec's C++ library; import `jobspec`, not this module";
    m.attr("__version__") = jobspec::library_version();
    m.attr("FLUX_VERDICT_BYTES") = jobspec::flux_verdict_bytes;
    m.def(
        "explain",
        [](std::string_view code) -> py::object {
            const auto c = jobspec::code_from_name(code);
            if (!c)
                return py::none();
            return py::str(std::string(jobspec::explanation(*c)));
        },
        py::arg("code"),
        "What a diagnostic code means, with an example and its fix (Markdown), or None for "
        "an unknown code.");
    m.def(
        "visible_text", [](std::string_view text) { return jobspec::visible_text(text); },
        py::arg("text"),
        "`text` with everything a terminal would act on or hide (controls, escapes, "
        "bidirectional formatting, bytes that are not UTF-8) shown as visible escapes.");
    m.def(
        "display_width", [](std::string_view text) { return jobspec::display_width(text); },
        py::arg("text"), "How many terminal columns `text` takes once made visible.");
    jobspec::python::bind_documents(m);
    jobspec::python::bind_constraints(m);
    jobspec::python::bind_flux_constraint(m);
    jobspec::python::bind_sets(m);
    jobspec::python::bind_forecast(m);
}
