// to_json_text: the public face of the one JSON writer (support/json_text).
#include <jobspec/emit.hpp>

#include "support/json_text.hpp"

namespace jobspec {

std::string to_json_text(const boost::json::value& value, bool pretty) {
    std::string out = support::json_text(
        value, pretty ? support::JsonTextStyle::pretty : support::JsonTextStyle::compact);
    out += '\n';
    return out;
}

std::string to_flux_json_text(const boost::json::value& value) {
    return support::json_text(value, support::JsonTextStyle::python);
}

} // namespace jobspec
