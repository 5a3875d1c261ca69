// to_flux_json_text: JSON as Python's json.dumps(ensure_ascii=False) writes it.
#include <jobspec/submit.hpp>

#include <cmath>

#include <boost/json.hpp>

#include "support/json_string.hpp"
#include "support/python_numbers.hpp"

namespace jobspec {

namespace {

void write(std::string& out, const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::null:
        out += "null";
        break;
    case boost::json::kind::bool_:
        out += v.get_bool() ? "true" : "false";
        break;
    case boost::json::kind::int64:
        out += std::to_string(v.get_int64());
        break;
    case boost::json::kind::uint64:
        out += std::to_string(v.get_uint64());
        break;
    case boost::json::kind::double_: {
        const double d = v.get_double();
        if (std::isnan(d))
            out += "NaN";
        else if (std::isinf(d))
            out += d < 0 ? "-Infinity" : "Infinity";
        else
            out += support::python_float_repr(d);
        break;
    }
    case boost::json::kind::string:
        support::append_json_quoted(out, v.get_string(), support::JsonEscapes::minimal);
        break;
    case boost::json::kind::array: {
        out += '[';
        bool first = true;
        for (const auto& e : v.get_array()) {
            if (!first)
                out += ", ";
            first = false;
            write(out, e);
        }
        out += ']';
        break;
    }
    case boost::json::kind::object: {
        out += '{';
        bool first = true;
        for (const auto& [key, e] : v.get_object()) {
            if (!first)
                out += ", ";
            first = false;
            support::append_json_quoted(out, key, support::JsonEscapes::minimal);
            out += ": ";
            write(out, e);
        }
        out += '}';
        break;
    }
    }
}

} // namespace

std::string to_flux_json_text(const boost::json::value& value) {
    std::string out;
    write(out, value);
    return out;
}

} // namespace jobspec
