#include "support/json_kinds.hpp"

namespace jobspec::support {

std::string_view describe(boost::json::kind kind) noexcept {
    switch (kind) {
    case boost::json::kind::null:
        return "null";
    case boost::json::kind::bool_:
        return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
        return "an integer";
    case boost::json::kind::double_:
        return "a number";
    case boost::json::kind::string:
        return "a string";
    case boost::json::kind::array:
        return "a list";
    case boost::json::kind::object:
        return "a dictionary";
    }
    return "a value";
}

bool is_number(const boost::json::value& value) noexcept {
    return value.is_int64() || value.is_uint64() || value.is_double();
}

double as_double(const boost::json::value& value) noexcept {
    if (value.is_int64())
        return static_cast<double>(value.get_int64());
    if (value.is_uint64())
        return static_cast<double>(value.get_uint64());
    if (value.is_double())
        return value.get_double();
    return 0;
}

} // namespace jobspec::support
