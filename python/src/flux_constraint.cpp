// jobspec.compat.flux's ConstraintParser.parse: flux's reading of a query from the C++
// grammar, folded into flux's RFC 31 dicts with the parser object's configuration, and
// for MiniConstraintParser checked against RFC 31.
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/constraint.hpp>
#include <jobspec/flux_query.hpp>
#include <jobspec/render.hpp>

#include "bindings.hpp"
#include "convert.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

/// Queries up to this many bytes are read holding the GIL: giving it up and taking it
/// back costs 0.2 us, more than another thread gains while a short query is read.
constexpr std::size_t gil_release_size = 256;

/// A new list of the items.
py::list list_of(std::initializer_list<py::handle> items) {
    py::list out(items.size());
    std::size_t i = 0;
    for (py::handle item : items)
        PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i++), item.inc_ref().ptr());
    return out;
}

/// container.append(item), directly for a list.
void append(py::handle container, py::handle item) {
    if (PyList_Check(container.ptr())) {
        if (PyList_Append(container.ptr(), item.ptr()) < 0)
            throw py::error_already_set();
    } else {
        container.attr("append")(item);
    }
}

/// The names the fold uses, as interned str objects made the first time (under the GIL)
/// and never changed or freed after, as convert.cpp's known keys are: RFC 31's logical
/// keys, and the parser attributes and methods it looks up on every parse.
struct Names {
    py::handle and_, or_, not_;
    py::handle operator_map, split_values, combined_terms, combine_like_terms, invalid_operator,
        split, extend, diagnostics;
};

const Names& names() {
    static const Names made{
        PyUnicode_InternFromString("and"),
        PyUnicode_InternFromString("or"),
        PyUnicode_InternFromString("not"),
        PyUnicode_InternFromString("operator_map"),
        PyUnicode_InternFromString("split_values"),
        PyUnicode_InternFromString("combined_terms"),
        PyUnicode_InternFromString("combine_like_terms"),
        PyUnicode_InternFromString("invalid_operator"),
        PyUnicode_InternFromString("split"),
        PyUnicode_InternFromString("extend"),
        PyUnicode_InternFromString("diagnostics"),
    };
    return made;
}

/// object.name, raising what Python raises.
py::object attribute(py::handle object, py::handle name) {
    PyObject* value = PyObject_GetAttr(object.ptr(), name.ptr());
    if (value == nullptr)
        throw py::error_already_set();
    return py::reinterpret_steal<py::object>(value);
}

/// mapping[key], or a null object where `key in mapping` is false: a dict is read
/// directly, anything else through `in` and [] as flux reads it.
py::object lookup(py::handle mapping, py::handle key) {
    if (PyDict_CheckExact(mapping.ptr())) {
        PyObject* value = PyDict_GetItemWithError(mapping.ptr(), key.ptr());
        if (value == nullptr && PyErr_Occurred())
            throw py::error_already_set();
        return py::reinterpret_borrow<py::object>(value);
    }
    const int found = PySequence_Contains(mapping.ptr(), key.ptr());
    if (found < 0)
        throw py::error_already_set();
    if (found == 0)
        return py::object();
    PyObject* value = PyObject_GetItem(mapping.ptr(), key.ptr());
    if (value == nullptr)
        throw py::error_already_set();
    return py::reinterpret_steal<py::object>(value);
}

/// The text of a str, or nothing for anything else (or a str UTF-8 cannot hold).
std::optional<std::string_view> utf8_of(py::handle object) {
    if (!PyUnicode_Check(object.ptr()))
        return std::nullopt;
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(object.ptr(), &size);
    if (data == nullptr) {
        PyErr_Clear();
        return std::nullopt;
    }
    return std::string_view(data, static_cast<std::size_t>(size));
}

py::str text_of(std::string_view text) {
    return py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
}

/// Whether this interpreter's Unicode calls `c` a letter or digit (str.isalnum()), as its
/// `\w` does.
bool python_alnum(char32_t c) {
    return Py_UNICODE_ISALNUM(static_cast<Py_UCS4>(c));
}

/// flux's ConstraintParser.invalid_operator: the first character of the str `op` that
/// cannot be in an operator, or None; jobspec's rule (invalid_operator_character) with
/// this interpreter's letters and digits. Raises TypeError as flux's regular expression
/// does for what is not a str.
py::object invalid_operator_of(py::handle op) {
    if (!PyUnicode_Check(op.ptr()))
        throw py::type_error("expected string or bytes-like object, got '" +
                             py::type::handle_of(op).attr("__name__").cast<std::string>() + "'");
    const auto character_at = [&](Py_ssize_t index) {
        return py::reinterpret_steal<py::object>(PyUnicode_Substring(op.ptr(), index, index + 1));
    };
    if (const auto text = utf8_of(op)) {
        const auto bad = invalid_operator_character(*text, python_alnum);
        if (!bad)
            return py::none();
        Py_ssize_t index = 0; // the code point the byte offset starts
        for (std::size_t i = 0; i < bad->offset; ++i)
            index += (static_cast<unsigned char>((*text)[i]) & 0xC0) != 0x80 ? 1 : 0;
        return character_at(index);
    }
    // A str UTF-8 cannot hold (a lone surrogate, which is no word character): each code
    // point by itself.
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(op.ptr()); i < n; ++i) {
        py::object one = character_at(i);
        const auto text = utf8_of(one);
        if (!text || invalid_operator_character(*text, python_alnum))
            return one;
    }
    return py::none();
}

/// The first key of a dict (flux's next(iter(entry))).
py::object first_key(py::handle entry) {
    PyObject* key = nullptr;
    Py_ssize_t pos = 0;
    if (PyDict_CheckExact(entry.ptr()) && PyDict_Next(entry.ptr(), &pos, &key, nullptr))
        return py::reinterpret_borrow<py::object>(key);
    return py::reinterpret_borrow<py::object>(*py::iter(entry));
}

bool contains(py::handle container, py::handle key) {
    const int found = PySequence_Contains(container.ptr(), key.ptr());
    if (found < 0)
        throw py::error_already_set();
    return found == 1;
}

bool equal(py::handle a, py::handle b) {
    const int same = PyObject_RichCompareBool(a.ptr(), b.ptr(), Py_EQ);
    if (same < 0)
        throw py::error_already_set();
    return same == 1;
}

/// flux's ConstraintParser.combine_like_terms (p1 AND p2): p2 joins p1's `and` if p1 is
/// one; terms of `combined_terms` operators merge into the first.
py::object combine_like_terms(py::handle p1, py::handle p2, py::handle combined_terms) {
    const Names& names_ = names();
    if (py::object terms = lookup(p1, names_.and_)) {
        append(terms, p2);
        contains(combined_terms, first_key(p1)); // flux asks, though p1 is the result either way
        return py::reinterpret_borrow<py::object>(p1);
    }
    const py::object k1 = first_key(p1), k2 = first_key(p2);
    const bool c1 = contains(combined_terms, k1), c2 = contains(combined_terms, k2);
    if (!(c1 && c2 && equal(k1, k2))) {
        py::dict d;
        if (PyDict_SetItem(d.ptr(), names_.and_.ptr(), list_of({p1, p2}).ptr()) < 0)
            throw py::error_already_set();
        return d;
    }
    PyObject* into = PyObject_GetItem(p1.ptr(), k1.ptr());
    if (into == nullptr)
        throw py::error_already_set();
    const auto merged = py::reinterpret_steal<py::object>(into);
    PyObject* from = PyObject_GetItem(p2.ptr(), k2.ptr());
    if (from == nullptr)
        throw py::error_already_set();
    attribute(merged, names_.extend)(py::reinterpret_steal<py::object>(from));
    return py::reinterpret_borrow<py::object>(p1);
}

/// Which of ConstraintParser's two overridable methods a parser class overrides.
struct Overrides {
    bool combine_like_terms = false;
    bool invalid_operator = false;
};

/// The overrides of `type`, a subclass of `base` or `base` itself. The calling thread
/// remembers the last answer with the type's version tag, which CPython changes whenever
/// the type or a base of it changes, so a class whose methods are reassigned is asked
/// again.
Overrides overrides_of(PyTypeObject* type, py::handle base) {
    struct Seen {
        PyTypeObject* type = nullptr;
        unsigned int version = 0;
        PyObject* base = nullptr;
        Overrides overrides;
    };
    thread_local Seen seen;
    if (PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG) && seen.type == type &&
        seen.version == type->tp_version_tag && seen.base == base.ptr())
        return seen.overrides;
    Overrides o;
    const py::handle t(reinterpret_cast<PyObject*>(type));
    if (!t.is(base)) {
        const Names& n = names();
        o.combine_like_terms =
            !attribute(t, n.combine_like_terms).is(attribute(base, n.combine_like_terms));
        o.invalid_operator =
            !attribute(t, n.invalid_operator).is(attribute(base, n.invalid_operator));
    }
    // The lookups give the type a tag if it had none.
    if (PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        seen = Seen{type, type->tp_version_tag, base.ptr(), o};
    return o;
}

/// One parse: the parser object's configuration, read through the instance as flux reads
/// it, and its two overridable methods, called only when a subclass overrides them. As
/// fold_flux_query's fold it keeps a stack of values; what Python raises in it is kept
/// and raised again after (rethrow()), so nothing is thrown through the library, which
/// may run it without the GIL (each step takes the GIL then).
class Fold final : public FluxQueryFold {
public:
    /// With `check`, each term is checked against RFC 31 as it is made (check()).
    Fold(py::handle parser, py::handle base, py::handle error, bool check)
        : error_(py::reinterpret_borrow<py::object>(error)),
          operator_map_(attribute(parser, names_.operator_map)),
          split_values_(attribute(parser, names_.split_values)),
          combined_terms_(attribute(parser, names_.combined_terms)), terms_valid_(check) {
        const Overrides overrides = overrides_of(Py_TYPE(parser.ptr()), base);
        if (overrides.combine_like_terms)
            combine_ = attribute(parser, names_.combine_like_terms);
        if (overrides.invalid_operator)
            invalid_operator_ = attribute(parser, names_.invalid_operator);
        // An overriding combine_like_terms may build anything: only the whole result,
        // read as RFC 31 JSON, tells.
        terms_valid_ = terms_valid_ && !combine_;
    }

    void term(const FluxQueryTerm& t) override {
        step([&] { stack_.push_back(term(t.text)); });
    }

    void negate() override {
        step([&] { stack_.back() = entry(names_.not_, list_of({stack_.back()})); });
    }

    void combine(bool conjunction) override {
        step([&] {
            py::object right = std::move(stack_.back());
            stack_.pop_back();
            py::object& left = stack_.back();
            left = conjunction ? combine(left, right) : or_(left, right);
        });
    }

    /// Raises what a step raised.
    void rethrow() {
        if (raised_)
            std::rethrow_exception(raised_);
    }

    /// The value of the steps (after rethrow()).
    py::object result() {
        if (stack_.size() != 1)
            throw std::logic_error("fold_flux_query's steps do not fold to one value");
        return std::move(stack_.back());
    }

    /// Raises `error` with jobspec's diagnostics unless the constraint `run` made is valid
    /// RFC 31. The built-in fold makes only and/or/not over terms, so when every term's
    /// values are valid for its operator (valid_constraint_operand) so is the whole; when
    /// one is not, or a subclass combined the terms, the whole is read as RFC 31 JSON,
    /// which also locates what is wrong.
    void check(py::handle constraint) {
        if (terms_valid_)
            return;
        Result<Constraint> checked = constraint_from_json(to_json(constraint));
        const Diagnostics& diagnostics = checked.diagnostics();
        if (!checked.ok() || diagnostics.has_errors()) {
            std::string message = render_text(diagnostics, "");
            while (!message.empty() && message.back() == '\n')
                message.pop_back();
            raise(text_of(message), diagnostic_objects(diagnostics, ""));
        }
        if (!diagnostics.empty())
            issue_warnings(diagnostics, "");
    }

    /// Raises where flux stopped (after what the terms before it raised).
    [[noreturn]] void fail(const FluxQueryStop& stop, py::handle query, std::string_view text) {
        rethrow();
        const FluxQueryError& e = stop.error;
        const std::string position = std::to_string(e.position);
        std::string message;
        using Kind = FluxQueryError::Kind;
        switch (e.kind) {
        case Kind::illegal_character:
            message = "Illegal character '" + e.text + "' at position " + position;
            break;
        case Kind::unclosed_quote:
            message = e.text == "'" ? "Unclosed quote \"'\" at position " + position
                                    : "Unclosed quote '\"' at position " + position;
            break;
        case Kind::missing_argument:
            message = "Missing argument to token '" + e.text + "'";
            break;
        case Kind::invalid_token:
            message = "Invalid token '" + e.text + "' at position " + position;
            break;
        case Kind::end_of_input:
            message = "Unexpected end of input in '" + py::str(query).cast<std::string>() + "'";
            break;
        case Kind::unclosed_parenthesis:
            message = "Unclosed parenthesis in position " + position;
            break;
        case Kind::mismatched_parentheses:
            message = "Mismatched parentheses starting at position {self.lexer.last_rparens}.";
            break;
        case Kind::limit:
            message =
                stop.diagnostics.empty() ? std::string("limit") : stop.diagnostics.begin()->message;
            break;
        }
        raise(text_of(message), diagnostic_objects(stop.diagnostics, text));
    }

    /// The library runs the fold without the GIL when the query is long.
    bool released = false;

private:
    /// Runs one step with the GIL, unless an earlier one raised.
    template <class F>
    void step(F&& f) {
        if (raised_)
            return;
        std::optional<py::gil_scoped_acquire> gil;
        if (released)
            gil.emplace();
        try {
            f();
        } catch (...) {
            raised_ = std::current_exception();
        }
    }

    [[noreturn]] void raise(py::handle message, py::handle diagnostics = {}) {
        py::object exception = error_(message);
        if (PyObject_SetAttr(exception.ptr(), names_.diagnostics.ptr(),
                             diagnostics ? diagnostics.ptr() : py::list().ptr()) < 0)
            throw py::error_already_set();
        PyErr_SetObject(error_.ptr(), exception.ptr());
        throw py::error_already_set();
    }

    /// {key: value}.
    static py::object entry(py::handle key, py::handle value) {
        py::dict d;
        if (PyDict_SetItem(d.ptr(), key.ptr(), value.ptr()) < 0)
            throw py::error_already_set();
        return d;
    }

    /// flux's term: op:value with the operator mapped (a bare term takes the None
    /// entry's), checked, and the value split when split_values names the operator.
    py::object term(std::string_view text) {
        const std::size_t colon = text.find(':');
        py::object op, value;
        if (colon == std::string_view::npos) {
            value = text_of(text);
            op = lookup(operator_map_, py::none());
            if (!op)
                raise(py::str("Missing required operator in \"{}\"").format(value));
        } else {
            op = text_of(text.substr(0, colon));
            value = text_of(text.substr(colon + 1));
            if (py::object mapped = lookup(operator_map_, op))
                op = std::move(mapped);
        }
        const py::object invalid = invalid_operator(op);
        if (PyObject_IsTrue(invalid.ptr()) == 1)
            raise(py::str("invalid character '{}' in operator '{}:'").format(invalid, op));
        const py::object separator = lookup(split_values_, op);
        py::object values = list_of({value});
        if (separator) {
            PyObject* parts =
                PyUnicode_Check(separator.ptr())
                    ? PyUnicode_Split(value.ptr(), separator.ptr(), -1)
                    : PyObject_CallMethodOneArg(value.ptr(), names_.split.ptr(), separator.ptr());
            if (parts == nullptr)
                throw py::error_already_set();
            values = py::reinterpret_steal<py::object>(parts);
        }
        if (terms_valid_)
            terms_valid_ = valid_term(op, values);
        return entry(op, values);
    }

    /// Whether every value is valid for the operator (both str).
    static bool valid_term(py::handle op, py::handle values) {
        const auto name = utf8_of(op);
        if (!name || !PyList_CheckExact(values.ptr()))
            return false;
        for (Py_ssize_t i = 0, n = PyList_GET_SIZE(values.ptr()); i < n; ++i) {
            const auto value = utf8_of(PyList_GET_ITEM(values.ptr(), i));
            if (!value || !valid_constraint_operand(*name, *value))
                return false;
        }
        return true;
    }

    py::object invalid_operator(py::handle op) {
        return invalid_operator_ ? invalid_operator_(op) : invalid_operator_of(op);
    }

    /// flux's combine_like_terms, or the override.
    py::object combine(py::handle p1, py::handle p2) {
        return combine_ ? combine_(p1, p2) : combine_like_terms(p1, p2, combined_terms_);
    }

    py::object or_(py::handle p1, py::handle p2) {
        if (py::object terms = lookup(p1, names_.or_)) {
            append(terms, p2);
            return py::reinterpret_borrow<py::object>(p1);
        }
        return entry(names_.or_, list_of({p1, p2}));
    }

    const Names& names_ = names();
    py::object error_;
    py::object operator_map_, split_values_, combined_terms_;
    py::object combine_, invalid_operator_;
    bool terms_valid_;
    std::vector<py::object> stack_;
    std::exception_ptr raised_;
};

} // namespace

void bind_flux_constraint(py::module_& m) {
    m.def("_invalid_operator", &invalid_operator_of, py::arg("op"));
    m.def("_combine_like_terms", [](py::handle parser, py::handle p1, py::handle p2) {
        return combine_like_terms(p1, p2, attribute(parser, names().combined_terms));
    });
    // MiniConstraintParser's configuration, from the table jobspec's --requires reader uses.
    m.def("_requires_dialect", [] {
        const RequiresDialect& r = requires_dialect;
        py::dict operators;
        operators[py::none()] = py::str(r.bare.data(), r.bare.size());
        for (const auto& [alias, op] : r.aliases)
            operators[py::str(alias.data(), alias.size())] = py::str(op.data(), op.size());
        py::dict split;
        split[py::str(r.split.data(), r.split.size())] = py::str(std::string(1, r.separator));
        py::set combined;
        combined.add(py::str(r.split.data(), r.split.size()));
        return py::make_tuple(operators, split, combined);
    });
    m.def("_flux_parse", [](py::handle parser, py::handle base, py::handle error, py::handle query,
                            bool check) {
        std::string_view text;
        if (!query.is_none()) {
            if (!PyUnicode_Check(query.ptr()))
                throw py::type_error(
                    "a query is a str, not " +
                    py::type::handle_of(query).attr("__name__").cast<std::string>());
            Py_ssize_t size = 0;
            const char* data = PyUnicode_AsUTF8AndSize(query.ptr(), &size);
            if (data == nullptr)
                throw py::error_already_set();
            text = std::string_view(data, static_cast<std::size_t>(size));
        }
        Fold fold(parser, base, error, check);
        fold.released = text.size() > gil_release_size;
        const auto stop = fold.released ? without_gil([&] { return fold_flux_query(text, fold); })
                                        : fold_flux_query(text, fold);
        if (stop)
            fold.fail(*stop, query, text);
        fold.rethrow();
        py::object result = fold.result();
        if (check)
            fold.check(result);
        return result;
    });
}

} // namespace jobspec::python
