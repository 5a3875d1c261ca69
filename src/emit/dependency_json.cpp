// A dependency as its RFC 26 JSON object.
#include <jobspec/emit.hpp>

#include <boost/json/object.hpp>

namespace jobspec {

boost::json::value to_json_value(const Dependency& dependency) {
    boost::json::object o;
    o.reserve(2 + dependency.options.size());
    o.emplace("scheme", dependency.scheme);
    o.emplace("value", dependency.value);
    for (const auto& option : dependency.options)
        o.emplace(option.key, option.value);
    return o;
}

} // namespace jobspec
