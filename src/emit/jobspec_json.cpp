// A whole jobspec as a JSON value, keys in RFC 14's order.
#include <jobspec/emit.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace jobspec {

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
        o.emplace("attributes", *t.attributes);
    return o;
}

} // namespace

boost::json::value to_json_value(const Jobspec& jobspec, CountStyle counts) {
    boost::json::object o;
    o.emplace("version", jobspec.version);
    o.emplace("resources", to_json_value(jobspec.resources, counts));
    boost::json::array tasks;
    for (const auto& t : jobspec.tasks)
        tasks.push_back(task_value(t));
    o.emplace("tasks", std::move(tasks));
    o.emplace("attributes", jobspec.attributes);
    return o;
}

} // namespace jobspec
