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

} // namespace jobspec::support
