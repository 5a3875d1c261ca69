// The Python side of the error object lives in jobspec/_errors.py; this file hands it
// the diagnostics and the rendered text.
#include "diagnostics.hpp"

#include <string>

#include <jobspec/render.hpp>

#include "convert.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

py::object errors_module() {
    return py::module_::import("jobspec._errors");
}

Diagnostics only(const Diagnostics& all, Severity severity) {
    Diagnostics picked(all.size() + 1);
    for (const auto& d : all)
        if (d.severity == severity)
            picked.add(d);
    return picked;
}

} // namespace

py::list diagnostic_list(const Diagnostics& diagnostics, std::string_view source) {
    return to_python(boost::json::value(diagnostics_to_json(diagnostics, source)));
}

py::list diagnostic_objects(const Diagnostics& diagnostics, std::string_view source) {
    return errors_module().attr("_diagnostics")(diagnostic_list(diagnostics, source));
}

void raise_error(const Diagnostics& diagnostics, std::string_view source) {
    const std::string text = render_text(diagnostics, source);
    errors_module().attr("_raise")(text, diagnostic_list(diagnostics, source),
                                   render_line(diagnostics, flux_verdict_bytes));
    throw py::error_already_set(); // _raise always raises; this is never reached
}

py::list warning_objects(const Diagnostics& diagnostics, std::string_view source) {
    const Diagnostics warnings = only(diagnostics, Severity::warning);
    if (warnings.empty())
        return py::list();
    py::list texts;
    py::list summaries;
    for (const auto& w : warnings) {
        Diagnostics one;
        one.add(w);
        texts.append(render_text(one, source));
        summaries.append(render_line(one, flux_verdict_bytes));
    }
    return errors_module().attr("_warnings")(texts, diagnostic_list(warnings, source), summaries);
}

void issue_warnings(const Diagnostics& diagnostics, std::string_view source) {
    if (py::list warnings = warning_objects(diagnostics, source); !warnings.empty())
        errors_module().attr("_warn")(warnings);
}

} // namespace jobspec::python
