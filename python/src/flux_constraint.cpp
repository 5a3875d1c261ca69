// jobspec.compat.flux's ConstraintParser.parse: flux's reading of a query from the C++
// grammar, folded into flux's RFC 31 dicts with the parser object's configuration.
#include <stdexcept>
#include <string>
#include <vector>

#include <jobspec/flux_query.hpp>

#include "bindings.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

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

/// RFC 31's logical keys as interned str objects, made the first time (under the GIL) and
/// never changed or freed after, as convert.cpp's known keys are.
struct LogicalKeys {
    py::handle and_, or_, not_;
};

const LogicalKeys& logical_keys() {
    static const LogicalKeys keys{PyUnicode_InternFromString("and"),
                                  PyUnicode_InternFromString("or"),
                                  PyUnicode_InternFromString("not")};
    return keys;
}

py::str text_of(std::string_view text) {
    return py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
}

/// One parse: the parser object's configuration, read through the instance as flux reads
/// it, and its two overridable methods, called only when a subclass overrides them.
class Fold {
public:
    Fold(py::handle parser, py::handle base, py::handle error)
        : error_(py::reinterpret_borrow<py::object>(error)),
          operator_map_(parser.attr("operator_map")), split_values_(parser.attr("split_values")),
          combined_terms_(parser.attr("combined_terms")) {
        const py::handle type = py::type::handle_of(parser);
        if (!type.is(base)) {
            if (!type.attr("combine_like_terms").is(base.attr("combine_like_terms")))
                combine_ = parser.attr("combine_like_terms");
            if (!type.attr("invalid_operator").is(base.attr("invalid_operator")))
                invalid_operator_ = parser.attr("invalid_operator");
        }
        base_invalid_operator_ = base.attr("invalid_operator");
    }

    /// The value of the steps; raises what flux raises.
    py::object run(const FluxQuery& q) {
        std::vector<py::object> stack;
        std::size_t next_term = 0;
        for (const FluxQueryStep& step : q.steps) {
            switch (step.kind) {
            case FluxQueryStep::Kind::term:
                stack.push_back(term(q.terms[next_term++].text));
                continue;
            case FluxQueryStep::Kind::not_: {
                py::dict d;
                d[key_not_] = list_of({stack.back()});
                stack.back() = std::move(d);
                continue;
            }
            default:
                break;
            }
            py::object right = std::move(stack.back());
            stack.pop_back();
            py::object& left = stack.back();
            left = step.kind == FluxQueryStep::Kind::and_ ? combine(left, right) : or_(left, right);
        }
        if (stack.size() != 1)
            throw std::logic_error("read_flux_query gave steps that do not fold to one value");
        return std::move(stack.back());
    }

    /// Converts the terms flux converts before `q.error`, then raises it.
    [[noreturn]] void fail(const FluxQuery& q, py::handle query, std::string_view text) {
        for (std::size_t i = 0; i < q.terms_before_error; ++i)
            term(q.terms[i].text);
        const FluxQueryError& e = *q.error;
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
            message = q.diagnostics.empty() ? std::string("limit") : q.diagnostics.begin()->message;
            break;
        }
        raise(text_of(message), diagnostic_objects(q.diagnostics, text));
    }

private:
    [[noreturn]] void raise(py::handle message, py::handle diagnostics = {}) {
        py::object exception = error_(message);
        exception.attr("diagnostics") =
            diagnostics ? py::reinterpret_borrow<py::object>(diagnostics) : py::list();
        PyErr_SetObject(error_.ptr(), exception.ptr());
        throw py::error_already_set();
    }

    /// flux's term: op:value with the operator mapped (a bare term takes the None
    /// entry's), checked, and the value split when split_values names the operator.
    py::object term(std::string_view text) {
        const std::size_t colon = text.find(':');
        py::object op;
        py::str value;
        if (colon == std::string_view::npos) {
            value = text_of(text);
            if (!contains(operator_map_, py::none()))
                raise(py::str("Missing required operator in \"{}\"").format(value));
            op = operator_map_[py::none()];
        } else {
            op = text_of(text.substr(0, colon));
            value = text_of(text.substr(colon + 1));
            if (contains(operator_map_, op))
                op = operator_map_[op];
        }
        const py::object invalid = invalid_operator(op);
        if (PyObject_IsTrue(invalid.ptr()) == 1)
            raise(py::str("invalid character '{}' in operator '{}:'").format(invalid, op));
        py::dict d;
        if (contains(split_values_, op))
            d[op] = value.attr("split")(split_values_[op]);
        else
            d[op] = list_of({value});
        return d;
    }

    /// The first character of an ASCII operator outside [\w.+@-]; others ask Python's
    /// (the method's) regular expression, whose \w knows Unicode.
    py::object invalid_operator(py::handle op) {
        if (invalid_operator_)
            return invalid_operator_(op);
        if (PyUnicode_Check(op.ptr()) && PyUnicode_IS_ASCII(op.ptr())) {
            const auto* s = static_cast<const char*>(PyUnicode_DATA(op.ptr()));
            for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(op.ptr()); i < n; ++i) {
                const char c = s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '.' || c == '+' || c == '@' || c == '-'))
                    return py::str(std::string(1, c));
            }
            return py::none();
        }
        return base_invalid_operator_(op);
    }

    /// flux's combine_like_terms (or the override): p2 joins p1's `and` if p1 is one, and
    /// terms of combined_terms operators merge into the first.
    py::object combine(py::handle p1, py::handle p2) {
        if (combine_)
            return combine_(p1, p2);
        std::vector<py::handle> entries;
        if (contains(p1, key_and_)) {
            append(p1[key_and_], p2);
            entries = {p1};
        } else {
            entries = {p1, p2};
        }
        py::dict seen;
        py::list terms;
        for (py::handle entry : entries) {
            const auto key = py::reinterpret_borrow<py::object>(*py::iter(entry));
            if (!contains(combined_terms_, key)) {
                terms.append(entry);
            } else if (!seen.contains(key)) {
                seen[key] = entry[key];
                terms.append(entry);
            } else {
                seen[key].attr("extend")(entry[key]);
            }
        }
        if (terms.size() == 1)
            return terms[0];
        py::dict d;
        d[key_and_] = std::move(terms);
        return d;
    }

    py::object or_(py::handle p1, py::handle p2) {
        if (contains(p1, key_or_)) {
            append(p1[key_or_], p2);
            return py::reinterpret_borrow<py::object>(p1);
        }
        py::dict d;
        d[key_or_] = list_of({p1, p2});
        return d;
    }

    static bool contains(py::handle container, py::handle item) {
        const int found = PySequence_Contains(container.ptr(), item.ptr());
        if (found < 0)
            throw py::error_already_set();
        return found == 1;
    }

    py::object error_;
    py::object operator_map_, split_values_, combined_terms_;
    py::object combine_, invalid_operator_, base_invalid_operator_;
    py::handle key_and_ = logical_keys().and_, key_or_ = logical_keys().or_,
               key_not_ = logical_keys().not_;
};

} // namespace

void bind_flux_constraint(py::module_& m) {
    m.def("_flux_parse",
          [](py::handle parser, py::handle base, py::handle error, py::handle query) {
              const std::string text = query.is_none() ? std::string() : query.cast<std::string>();
              const FluxQuery q = without_gil([&] { return read_flux_query(text); });
              Fold fold(parser, base, error);
              if (q.error)
                  fold.fail(q, query, text);
              return fold.run(q);
          });
}

} // namespace jobspec::python
