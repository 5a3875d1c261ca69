// Attributes and tasks as RFC 14 writes them, for every jobspec writer.
#include "emit/attribute_json.hpp"

#include <variant>

#include <boost/json/array.hpp>

namespace jobspec::emit {

namespace {

boost::json::value task_count_value(const TaskCount& c) {
    boost::json::object o;
    const auto n = static_cast<std::int64_t>(c.count);
    switch (c.kind) {
    case TaskCount::Kind::per_slot:
        o.emplace("per_slot", n);
        break;
    case TaskCount::Kind::total:
        o.emplace("total", n);
        break;
    case TaskCount::Kind::per_resource: {
        boost::json::object r;
        r.emplace("type", c.resource_type);
        r.emplace("count", n);
        o.emplace("per_resource", std::move(r));
        break;
    }
    }
    return o;
}

boost::json::value number_value(const Number& n) {
    return std::visit([](auto v) { return boost::json::value(v); }, n.value);
}

boost::json::value environment_value(const Environment& env) {
    boost::json::object o;
    o.reserve(env.size());
    for (const auto& v : env)
        o.insert_or_assign(v.name, v.value ? boost::json::value(*v.value) : boost::json::value());
    return o;
}

} // namespace

boost::json::value attribute_value(const AttributeValue& value) {
    struct Write {
        boost::json::value operator()(const boost::json::value& v) const { return v; }
        boost::json::value operator()(const Number& n) const { return number_value(n); }
        boost::json::value operator()(const std::string& s) const { return boost::json::value(s); }
        boost::json::value operator()(const Environment& e) const { return environment_value(e); }
        boost::json::value operator()(const std::vector<Dependency>& dependencies) const {
            boost::json::array a;
            a.reserve(dependencies.size());
            for (const auto& d : dependencies)
                a.push_back(to_json_value(d));
            return a;
        }
        boost::json::value operator()(const Constraint& c) const { return to_json_value(c); }
    };
    return std::visit(Write{}, value);
}

boost::json::object attribute_list_value(const AttributeList& list) {
    boost::json::object o;
    o.reserve(list.entries.size());
    for (const auto& a : list.entries)
        o.insert_or_assign(a.key, attribute_value(a.value));
    return o;
}

boost::json::value task_value(const Task& t) {
    boost::json::object o;
    boost::json::array command;
    for (const auto& arg : t.command)
        command.emplace_back(arg);
    o.emplace("command", std::move(command));
    if (t.slot)
        o.emplace("slot", *t.slot);
    o.emplace("count", task_count_value(t.count));
    if (t.distribution)
        o.emplace("distribution", *t.distribution);
    if (t.attributes)
        o.emplace("attributes", attribute_list_value(*t.attributes));
    return o;
}

} // namespace jobspec::emit
