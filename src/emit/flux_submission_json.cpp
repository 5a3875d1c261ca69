#include "emit/flux_submission_json.hpp"

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <jobspec/emit.hpp>

#include "emit/attribute_json.hpp"

namespace jobspec::emit {

namespace {

bool fixed_counts(const ResourceList& list) {
    return std::all_of(list.begin(), list.end(), [](const ResourceVertex& v) {
        return v.count.is_fixed() && fixed_counts(v.with);
    });
}

boost::json::array layout_list(const ResourceList& list) {
    boost::json::array out;
    for (const auto& v : list) {
        boost::json::object o;
        o["type"] = v.type;
        o["count"] = static_cast<std::int64_t>(v.count.fixed());
        const auto properties = [&] {
            for (const auto& p : v.properties)
                o[p.key] = p.value;
        };
        if (!v.is_slot())
            properties();
        if (v.has_with)
            o["with"] = layout_list(v.with);
        if (v.is_slot())
            properties();
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace

boost::json::value flux_submission_json(const Jobspec& jobspec, FluxVertexOrder order,
                                        const boost::json::value* resources_as_written) {
    boost::json::object o;
    if (resources_as_written != nullptr)
        o["resources"] = *resources_as_written;
    else if (order == FluxVertexOrder::layout && fixed_counts(jobspec.resources))
        o["resources"] = layout_list(jobspec.resources);
    else
        o["resources"] = to_json_value(jobspec.resources);
    boost::json::array tasks;
    for (const auto& t : jobspec.tasks)
        tasks.push_back(task_value(t));
    o["tasks"] = std::move(tasks);
    boost::json::object attributes;
    if (jobspec.attributes.system)
        attributes["system"] = attribute_list_value(*jobspec.attributes.system);
    if (jobspec.attributes.user)
        attributes["user"] = *jobspec.attributes.user;
    o["attributes"] = std::move(attributes);
    o["version"] = jobspec.version;
    return o;
}

} // namespace jobspec::emit
