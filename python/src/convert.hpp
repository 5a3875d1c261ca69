// Converting between boost::json values and plain Python objects (dict, list, str, int,
// float, bool, None), the only types the Python API hands out or takes in.
#pragma once

#include <boost/json/value.hpp>
#include <jobspec/write_back.hpp>
#include <pybind11/pybind11.h>

namespace jobspec::python {

/// A new Python object for a JSON value: objects become dicts in key order, arrays lists.
pybind11::object to_python(const boost::json::value& value);

/// The JSON value of a Python object made of dict (str keys), list, tuple, str, int, float,
/// bool and None. Raises TypeError for anything else or a non-str key, ValueError for an
/// int outside 64 bits or nesting deeper than 1000.
boost::json::value to_json(pybind11::handle object);

/// A written text as Python takes it: (text, {pointer: (start, end)}), the ends counted in
/// characters of the str, as Python indexes it.
pybind11::tuple to_python(const WrittenText& written);

} // namespace jobspec::python
