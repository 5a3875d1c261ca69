// Forecasts: an instance's state (a dict, as `flux jobspec why` gathers it) in, the
// forecast of its pending jobs out, from the library's one implementation.
#include <jobspec/forecast.hpp>
#include <jobspec/forecast_text.hpp>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

void bind_forecast(py::module_& m) {
    m.def(
        "_forecast",
        [](py::handle state, std::string_view dialect, std::optional<std::uint64_t> max_steps,
           bool ascii_ids, std::size_t max_input_bytes) {
            const boost::json::value value = to_json(state);
            ReadOptions read;
            read.dialect = dialect == "fluxion" ? Dialect::fluxion : Dialect::rfc;
            read.limits.max_input_bytes = max_input_bytes;
            auto instance = take(instance_state_from_json(value, read), {}, false, true);
            ForecastOptions options;
            options.max_steps = max_steps;
            ForecastTextOptions text;
            text.ascii_ids = ascii_ids;
            const boost::json::value out = without_gil([&] {
                return forecast_to_json(forecast(instance, options), instance, text);
            });
            return to_python(out);
        },
        py::arg("state"), py::arg("dialect"), py::arg("max_steps"), py::arg("ascii_ids"),
        py::arg("max_input_bytes"));
}

} // namespace jobspec::python
