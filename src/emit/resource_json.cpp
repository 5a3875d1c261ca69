// The resource list as a JSON value: the one walk the JSON and YAML writers share.
#include <jobspec/emit.hpp>

#include <array>
#include <string_view>

namespace jobspec {

namespace {

/// Keys written right after type and count, in this order; others follow in source order.
constexpr std::array<std::string_view, 3> leading_keys = {"label", "unit", "exclusive"};

bool is_leading(std::string_view key) {
    for (const auto k : leading_keys)
        if (k == key)
            return true;
    return false;
}

boost::json::value count_value(const Count& count, CountStyle style) {
    if (count.is_fixed())
        return static_cast<std::int64_t>(count.fixed());
    if (count.is_idset() || style == CountStyle::string)
        return boost::json::value(count.format());
    const CountRange& r = count.range();
    boost::json::object o;
    o.emplace("min", static_cast<std::int64_t>(r.min));
    if (r.max)
        o.emplace("max", static_cast<std::int64_t>(*r.max));
    if (r.max || r.explicit_step) {
        o.emplace("operator", std::string(1, static_cast<char>(r.op)));
        o.emplace("operand", static_cast<std::int64_t>(r.operand));
    }
    return o;
}

boost::json::value vertex_value(const ResourceVertex& v, CountStyle style) {
    boost::json::object o;
    o.reserve(3 + v.properties.size());
    o.emplace("type", v.type);
    o.emplace("count", count_value(v.count, style));
    for (const auto key : leading_keys)
        if (const VertexProperty* p = v.find(key))
            o.emplace(key, p->value);
    for (const auto& p : v.properties)
        if (!is_leading(p.key))
            o.emplace(p.key, p.value);
    if (v.has_with)
        o.emplace("with", to_json_value(v.with, style));
    return o;
}

} // namespace

boost::json::value to_json_value(const ResourceList& resources, CountStyle counts) {
    boost::json::array a;
    a.reserve(resources.size());
    for (const auto& v : resources)
        a.push_back(vertex_value(v, counts));
    return a;
}

} // namespace jobspec
