#include "lower/request_lowering.hpp"

#include <fmt/format.h>

#include <jobspec/emit.hpp>

#include "lower/attribute_lowering.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::lower {

namespace {

ResourceVertex vertex(std::string type, std::uint64_t count) {
    ResourceVertex v;
    v.type = std::move(type);
    v.count = Count{count};
    return v;
}

/// The slot the options describe: slot=count{label}/[core=c;gpu=g].
ResourceVertex option_slot(const JobRequest& r, std::uint64_t count) {
    ResourceVertex slot = vertex("slot", count);
    slot.properties.push_back({"label", boost::json::value(r.slot_label), {}, {}});
    slot.has_with = true;
    slot.with.push_back(vertex("core", r.cores_per_task));
    if (r.gpus_per_task > 0)
        slot.with.push_back(vertex("gpu", r.gpus_per_task));
    return slot;
}

/// Sets the JSON at `path` (dotted, not empty) inside `object`, making dictionaries on
/// the way; false when a part is empty.
bool set_json(boost::json::object& object, std::string_view path, boost::json::value value) {
    boost::json::object* at = &object;
    while (true) {
        const auto dot = path.find('.');
        const std::string_view key = path.substr(0, dot);
        if (key.empty())
            return false;
        if (dot == std::string_view::npos) {
            (*at)[key] = std::move(value);
            return true;
        }
        boost::json::value& next = (*at)[key];
        if (!next.is_object())
            next = boost::json::object();
        at = &next.get_object();
        path.remove_prefix(dot + 1);
    }
}

/// Sets variable `name` of `env`, replacing its value when it is already there.
void set_variable(Environment& env, std::string name, std::optional<std::string> value) {
    for (auto& v : env)
        if (v.name == name) {
            v.value = std::move(value);
            return;
        }
    env.push_back({std::move(name), std::move(value), {}, {}});
}

class AttributeSetter {
public:
    AttributeSetter(Attributes& attributes, Diagnostics& diagnostics)
        : attributes_(attributes), diags_(diagnostics) {}

    /// Sets attributes.<path> ("system.queue", "user.study.run"; "queue" means system).
    void set(std::string_view path, const boost::json::value& value) {
        if (path.substr(0, 5) == "user.")
            return user(path, path.substr(5), value);
        const std::string_view rest = path.substr(0, 7) == "system." ? path.substr(7) : path;
        const auto dot = rest.find('.');
        const std::string key(rest.substr(0, dot));
        if (key.empty() || (dot != std::string_view::npos && dot + 1 == rest.size()))
            return empty_part(path);
        AttributeList& system = attributes_.system_list();
        if (dot == std::string_view::npos)
            return typed(system, key, value);
        const std::string_view inner = rest.substr(dot + 1);
        const Attribute* existing = system.find(key);
        if (key == "environment" && inner.find('.') == std::string_view::npos &&
            (value.is_string() || value.is_null())) {
            Environment env;
            if (const auto* current = system.get<Environment>(key))
                env = *current;
            set_variable(env, std::string(inner),
                         value.is_null() ? std::nullopt
                                         : std::optional<std::string>(value.get_string()));
            return system.set(key, std::move(env));
        }
        if (system_attribute_type(key) != 0) {
            diags_.add(Code::jobspec_request,
                       fmt::format("'{}' cannot be set part by part ('{}')", key, path));
            return;
        }
        boost::json::object object;
        if (existing != nullptr)
            if (const auto* json = std::get_if<boost::json::value>(&existing->value);
                json != nullptr && json->is_object())
                object = json->get_object();
        if (!set_json(object, inner, value))
            return empty_part(path);
        typed(system, key, std::move(object));
    }

private:
    void user(std::string_view path, std::string_view inner, const boost::json::value& value) {
        if (!attributes_.user)
            attributes_.user.emplace();
        if (!set_json(*attributes_.user, inner, value))
            empty_part(path);
    }

    /// Reads `value` into attribute `key`'s type, as a document's value would be read.
    void typed(AttributeList& system, const std::string& key, const boost::json::value& value) {
        support::JsonPointer pointer("/attributes/system");
        support::PointerScope at(pointer, key);
        if (auto v = lower_attribute(key, syntax::DocNode::from_json(value), AttributeScope::system,
                                     pointer, diags_))
            system.set(key, std::move(*v));
    }

    void empty_part(std::string_view path) {
        diags_.add(Code::jobspec_request,
                   fmt::format("attribute path '{}' has an empty part", path));
    }

    Attributes& attributes_;
    Diagnostics& diags_;
};

} // namespace

bool lower_request_resources(const JobRequest& r, Jobspec& js, Task& task, Diagnostics& d) {
    if (r.cores_per_task == 0 || (r.nodes && *r.nodes == 0) || (r.tasks && *r.tasks == 0)) {
        d.add(Code::jobspec_request, "node, task and core counts must be at least 1");
        return false;
    }
    if (r.exclusive && !r.nodes) {
        d.add(Code::jobspec_request, "-x (exclusive nodes) needs -N");
        return false;
    }
    if (!r.nodes) {
        js.resources.push_back(option_slot(r, r.tasks.value_or(1)));
        return true;
    }
    const std::uint64_t nodes = *r.nodes;
    std::uint64_t slots_per_node = 1;
    if (r.tasks) {
        const std::uint64_t tasks = *r.tasks;
        if (nodes > tasks) {
            d.add(Code::jobspec_request,
                  fmt::format("-N {} asks for more nodes than there are tasks (-n {})", nodes,
                              tasks));
            return false;
        }
        slots_per_node = tasks / nodes;
        if (tasks % nodes != 0) {
            task.count.kind = TaskCount::Kind::total;
            task.count.count = tasks;
        }
    }
    ResourceVertex node = vertex("node", nodes);
    if (r.exclusive)
        node.properties.push_back({"exclusive", true, {}, {}});
    node.has_with = true;
    node.with.push_back(option_slot(r, slots_per_node));
    js.resources.push_back(std::move(node));
    return true;
}

Attributes lower_request_attributes(const JobRequest& request, Diagnostics& diagnostics) {
    Attributes attributes;
    AttributeList& system = attributes.system_list();
    system.set("duration", Number(request.duration));
    if (request.cwd)
        system.set("cwd", *request.cwd);
    if (!request.environment.empty()) {
        Environment env;
        for (const auto& [name, value] : request.environment)
            set_variable(env, name, value);
        system.set("environment", std::move(env));
    }
    std::vector<Dependency> dependencies = request.dependencies;
    if (request.begin_time) {
        Dependency begin;
        begin.scheme = "begin-time";
        begin.value = to_json_text(boost::json::value(*request.begin_time));
        begin.value.pop_back();
        dependencies.push_back(std::move(begin));
    }
    if (!dependencies.empty())
        system.set("dependencies", std::move(dependencies));
    if (request.constraints)
        system.set("constraints", *request.constraints);
    AttributeSetter setter(attributes, diagnostics);
    for (const auto& [path, value] : request.attributes)
        setter.set(path, value);
    return attributes;
}

} // namespace jobspec::lower
