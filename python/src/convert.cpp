// JSON <-> Python, on the CPython API directly: a compiled shape is converted on every
// call, so this is the Python overhead over the C++ work.
#include "convert.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>

namespace py = pybind11;

namespace jobspec::python {

namespace {

constexpr int max_nesting = 1000;

PyObject* new_string(std::string_view text) {
    return PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
}

/// The keys RFC 14 resource lists and jobspec use most, as interned str objects made the
/// first time a conversion runs (under the GIL) and never changed or freed after: every
/// conversion shares them instead of making its own.
struct KnownKey {
    std::string_view text;
    PyObject* object;
};

const std::vector<KnownKey>& known_keys() {
    static const std::vector<KnownKey> keys = [] {
        std::vector<KnownKey> made;
        for (const char* text : {"type", "count", "with", "label", "exclusive", "unit", "min",
                                 "max", "operator", "operand", "tasks", "command", "slot",
                                 "per_slot", "attributes", "system", "version", "resources"})
            if (PyObject* object = PyUnicode_InternFromString(text))
                made.push_back({text, object});
        PyErr_Clear();
        return made;
    }();
    return keys;
}

/// One conversion. Object keys repeat (every vertex has "type" and "count"), so the first
/// few distinct keys are made once and shared: no allocation or hashing for the rest.
class Converter {
public:
    Converter() = default;
    Converter(const Converter&) = delete;
    Converter& operator=(const Converter&) = delete;
    ~Converter() {
        for (auto& [text, key] : keys_)
            Py_DECREF(key);
    }

    PyObject* convert(const boost::json::value& value) {
        switch (value.kind()) {
        case boost::json::kind::null:
            Py_RETURN_NONE;
        case boost::json::kind::bool_:
            if (value.get_bool())
                Py_RETURN_TRUE;
            Py_RETURN_FALSE;
        case boost::json::kind::int64:
            return PyLong_FromLongLong(value.get_int64());
        case boost::json::kind::uint64:
            return PyLong_FromUnsignedLongLong(value.get_uint64());
        case boost::json::kind::double_:
            return PyFloat_FromDouble(value.get_double());
        case boost::json::kind::string:
            return new_string(value.get_string());
        case boost::json::kind::array:
            return list(value.get_array());
        case boost::json::kind::object:
            return dict(value.get_object());
        }
        Py_RETURN_NONE;
    }

private:
    static constexpr std::size_t max_keys = 16;

    /// A new reference to the key's str.
    PyObject* key(std::string_view text) {
        for (const auto& known : known_keys_)
            if (known.text == text) {
                Py_INCREF(known.object);
                return known.object;
            }
        for (auto& [known, object] : keys_)
            if (known == text) {
                Py_INCREF(object);
                return object;
            }
        PyObject* object = new_string(text);
        if (object != nullptr && keys_.size() < max_keys) {
            Py_INCREF(object);
            keys_.emplace_back(text, object);
        }
        return object;
    }

    PyObject* list(const boost::json::array& array) {
        PyObject* result = PyList_New(static_cast<Py_ssize_t>(array.size()));
        if (result == nullptr)
            return nullptr;
        Py_ssize_t i = 0;
        for (const auto& item : array) {
            PyObject* element = convert(item);
            if (element == nullptr) {
                Py_DECREF(result);
                return nullptr;
            }
            PyList_SET_ITEM(result, i++, element);
        }
        return result;
    }

    PyObject* dict(const boost::json::object& object) {
        PyObject* result = PyDict_New();
        if (result == nullptr)
            return nullptr;
        for (const auto& [name, item] : object) {
            PyObject* k = key(name);
            PyObject* v = k != nullptr ? convert(item) : nullptr;
            const bool ok = v != nullptr && PyDict_SetItem(result, k, v) == 0;
            Py_XDECREF(k);
            Py_XDECREF(v);
            if (!ok) {
                Py_DECREF(result);
                return nullptr;
            }
        }
        return result;
    }

    /// The keys' texts live in the value being converted, which outlives the converter.
    std::vector<std::pair<std::string_view, PyObject*>> keys_;
    const std::vector<KnownKey>& known_keys_ = known_keys();
};

boost::json::value to_json(py::handle object, int depth) {
    if (depth > max_nesting)
        throw py::value_error("nested deeper than 1000 levels");
    PyObject* o = object.ptr();
    if (o == Py_None)
        return nullptr;
    if (PyBool_Check(o))
        return o == Py_True;
    if (PyLong_Check(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow == 0)
            return static_cast<std::int64_t>(v);
        const unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            throw py::value_error("integer does not fit in 64 bits: " +
                                  py::repr(object).cast<std::string>());
        }
        return static_cast<std::uint64_t>(u);
    }
    if (PyFloat_Check(o))
        return PyFloat_AS_DOUBLE(o);
    if (PyUnicode_Check(o))
        return boost::json::string(object.cast<std::string_view>());
    if (PyDict_Check(o)) {
        boost::json::object result;
        for (auto [key, item] : py::reinterpret_borrow<py::dict>(object)) {
            if (!PyUnicode_Check(key.ptr()))
                throw py::type_error("JSON object keys must be str, not " +
                                     std::string(Py_TYPE(key.ptr())->tp_name));
            result[key.cast<std::string_view>()] = to_json(item, depth + 1);
        }
        return result;
    }
    if (PyList_Check(o) || PyTuple_Check(o)) {
        boost::json::array result;
        for (auto item : object)
            result.push_back(to_json(item, depth + 1));
        return result;
    }
    throw py::type_error(std::string("not a JSON value: ") + Py_TYPE(o)->tp_name);
}

} // namespace

py::tuple to_python(const WrittenText& written) {
    // Byte offsets to str indices: each byte that does not continue a UTF-8 sequence
    // starts a character.
    const std::string& text = written.text;
    std::vector<std::size_t> index(text.size() + 1, 0);
    for (std::size_t i = 0, chars = 0; i <= text.size(); ++i) {
        index[i] = chars;
        if (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
            ++chars;
    }
    py::dict spans;
    for (const auto& span : written.spans)
        spans[py::str(span.pointer)] =
            py::make_tuple(index[span.offset], index[span.offset + span.length]);
    return py::make_tuple(py::str(text), spans);
}

py::object to_python(const boost::json::value& value) {
    PyObject* o = Converter().convert(value);
    if (o == nullptr)
        throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}

boost::json::value to_json(py::handle object) {
    return to_json(object, 0);
}

} // namespace jobspec::python
