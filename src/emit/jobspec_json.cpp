// A whole jobspec as a JSON value, keys in RFC 14's order, attributes as they were read.
#include <jobspec/emit.hpp>

#include "emit/attribute_json.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace jobspec {

boost::json::value to_json_value(const Jobspec& jobspec, CountStyle counts) {
    boost::json::object o;
    o.emplace("version", jobspec.version);
    o.emplace("resources", to_json_value(jobspec.resources, counts));
    boost::json::array tasks;
    for (const auto& t : jobspec.tasks)
        tasks.push_back(emit::task_value(t));
    o.emplace("tasks", std::move(tasks));
    boost::json::object attributes;
    if (jobspec.attributes.system)
        attributes.emplace("system", emit::attribute_list_value(*jobspec.attributes.system));
    if (jobspec.attributes.user)
        attributes.emplace("user", *jobspec.attributes.user);
    o.emplace("attributes", std::move(attributes));
    return o;
}

} // namespace jobspec
