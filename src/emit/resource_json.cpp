// The resource list as a JSON value (which the YAML writer and pretty JSON start from),
// and as compact JSON text written directly, the hot path of compiling a shape.
#include <jobspec/emit.hpp>

#include <array>
#include <charconv>
#include <string_view>

#include "emit/json_text.hpp"
#include "support/json_string.hpp"

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

/// Calls f(key, value) for a vertex's properties in canonical order: the leading keys,
/// then the others in source order.
template <class F>
void for_each_property(const ResourceVertex& v, F&& f) {
    for (const auto key : leading_keys)
        if (const VertexProperty* p = v.find(key))
            f(key, p->value);
    for (const auto& p : v.properties)
        if (!is_leading(p.key))
            f(std::string_view(p.key), p.value);
}

boost::json::value vertex_value(const ResourceVertex& v, CountStyle style) {
    boost::json::object o;
    o.reserve(3 + v.properties.size());
    o.emplace("type", v.type);
    o.emplace("count", count_value(v.count, style));
    for_each_property(
        v, [&](std::string_view key, const boost::json::value& value) { o.emplace(key, value); });
    if (v.has_with)
        o.emplace("with", to_json_value(v.with, style));
    return o;
}

void append_number(std::string& out, std::uint64_t n) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, n);
    out.append(buf, r.ptr);
}

void append_count(std::string& out, const Count& count, CountStyle style) {
    if (count.is_fixed())
        return append_number(out, count.fixed());
    if (count.is_idset() || style == CountStyle::string)
        return support::append_json_quoted(out, count.format());
    const CountRange& r = count.range();
    out += R"({"min":)";
    append_number(out, r.min);
    if (r.max) {
        out += R"(,"max":)";
        append_number(out, *r.max);
    }
    if (r.max || r.explicit_step) {
        out += R"(,"operator":")";
        out += static_cast<char>(r.op);
        out += R"(","operand":)";
        append_number(out, r.operand);
    }
    out += '}';
}

void append_list(std::string& out, const ResourceList& resources, CountStyle style) {
    out += '[';
    for (std::size_t i = 0; i < resources.size(); ++i) {
        const ResourceVertex& v = resources[i];
        if (i > 0)
            out += ',';
        out += R"({"type":)";
        support::append_json_quoted(out, v.type);
        out += R"(,"count":)";
        append_count(out, v.count, style);
        for_each_property(v, [&](std::string_view key, const boost::json::value& value) {
            out += ',';
            support::append_json_quoted(out, key);
            out += ':';
            emit::append_json_text(out, value);
        });
        if (v.has_with) {
            out += R"(,"with":)";
            append_list(out, v.with, style);
        }
        out += '}';
    }
    out += ']';
}

} // namespace

boost::json::value to_json_value(const ResourceList& resources, CountStyle counts) {
    boost::json::array a;
    a.reserve(resources.size());
    for (const auto& v : resources)
        a.push_back(vertex_value(v, counts));
    return a;
}

std::string to_json_text(const ResourceList& resources, CountStyle counts, bool pretty) {
    if (pretty)
        return to_json_text(to_json_value(resources, counts), true);
    std::string out;
    out.reserve(64 * resources.size() + 16);
    append_list(out, resources, counts);
    out += '\n';
    return out;
}

} // namespace jobspec
