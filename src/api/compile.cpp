// compile_jobspec: a request (shape or srun-style options) -> checked jobspec.
#include <jobspec/compile.hpp>

#include <ctime>

#include <fmt/format.h>

#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>

#include "sema/canonical_jobspec.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "support/json_parse.hpp"
#include "support/numbers.hpp"

namespace jobspec {

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

/// Resources and the task count from -N/-n/-c/-g/-x, as RFC 25's use cases show them.
bool from_options(const JobRequest& r, Jobspec& js, Task& task, Diagnostics& d) {
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

/// Resources from a shape; the task runs in its only slot.
bool from_shape(const JobRequest& r, Jobspec& js, Task& task, Diagnostics& d) {
    if (r.nodes || r.exclusive || r.cores_per_task != 1 || r.gpus_per_task != 0) {
        d.add(Code::jobspec_request, "a shape replaces -N, -c, -g and -x; give one or the other");
        return false;
    }
    ShapeOptions options;
    options.default_label = r.slot_label;
    options.limits = r.limits;
    auto shape = compile_shape(*r.shape, options);
    if (!shape.ok()) {
        d.append(shape.diagnostics());
        return false;
    }
    // Its warnings come again from the canonical pass over the whole jobspec.
    js.resources = std::move(shape).value();
    std::vector<std::string_view> labels;
    const auto collect = [&](const auto& self, const ResourceList& list) -> void {
        for (const auto& v : list) {
            if (v.is_slot())
                if (auto label = v.label())
                    labels.push_back(*label);
            self(self, v.with);
        }
    };
    collect(collect, js.resources);
    if (labels.size() != 1) {
        d.add(Code::jobspec_request,
              fmt::format("the shape has {} slots; the task needs exactly one", labels.size()), {},
              "write one slot in the shape, e.g. slot=4/core=2");
        return false;
    }
    task.slot = std::string(labels.front());
    if (r.tasks) {
        task.count.kind = TaskCount::Kind::total;
        task.count.count = *r.tasks;
    }
    return true;
}

/// Sets attributes.<path> (dotted) to `value`, making dictionaries on the way.
bool set_attribute(boost::json::object& attributes, std::string_view path, boost::json::value value,
                   Diagnostics& d) {
    if (path.substr(0, 7) != "system." && path.substr(0, 5) != "user.")
        return set_attribute(attributes, "system." + std::string(path), std::move(value), d);
    boost::json::object* at = &attributes;
    while (true) {
        const auto dot = path.find('.');
        const std::string_view key = path.substr(0, dot);
        if (key.empty()) {
            d.add(Code::jobspec_request,
                  fmt::format("attribute path '{}' has an empty part", path));
            return false;
        }
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

} // namespace

Result<Jobspec> compile_jobspec(const JobRequest& request, bool v1) {
    Diagnostics d(request.limits.max_diagnostics);
    Jobspec js;
    Task task;
    task.slot = request.slot_label;
    task.command = request.command;
    if (request.command.empty())
        d.add(Code::jobspec_request, "no command to run", {}, "give it after '--'");
    const bool options_path = !request.shape.has_value();
    const bool built =
        options_path ? from_options(request, js, task, d) : from_shape(request, js, task, d);
    if (!built || d.has_errors())
        return Result<Jobspec>(std::move(d));
    js.tasks.push_back(std::move(task));

    boost::json::object system;
    system.emplace("duration", request.duration);
    if (request.cwd)
        system.emplace("cwd", *request.cwd);
    if (!request.environment.empty()) {
        boost::json::object env;
        for (const auto& [name, value] : request.environment)
            env[name] = value;
        system.emplace("environment", std::move(env));
    }
    std::vector<Dependency> dependencies = request.dependencies;
    if (request.begin_time) {
        Dependency begin;
        begin.scheme = "begin-time";
        begin.value = to_json_text(boost::json::value(*request.begin_time));
        begin.value.pop_back();
        dependencies.push_back(std::move(begin));
    }
    if (!dependencies.empty()) {
        boost::json::array list;
        for (const auto& dependency : dependencies)
            list.push_back(to_json_value(dependency));
        system.emplace("dependencies", std::move(list));
    }
    if (request.constraints)
        system.emplace("constraints", to_json_value(*request.constraints));
    js.attributes.emplace("system", std::move(system));
    for (const auto& [path, value] : request.attributes)
        if (!set_attribute(js.attributes, path, value, d))
            return Result<Jobspec>(std::move(d));

    sema::check_text_encoding(js, d);
    sema::check_canonical(js, d);
    if (v1 || options_path)
        sema::check_v1(js, d);
    if (d.has_errors())
        return Result<Jobspec>(std::move(d));
    return {std::move(js), std::move(d)};
}

std::optional<double> parse_duration(std::string_view text) {
    double scale = 1;
    if (!text.empty()) {
        switch (text.back()) {
        case 's':
            text.remove_suffix(1);
            break;
        case 'm':
            scale = 60;
            text.remove_suffix(1);
            break;
        case 'h':
            scale = 3600;
            text.remove_suffix(1);
            break;
        case 'd':
            scale = 86400;
            text.remove_suffix(1);
            break;
        default:
            break;
        }
    }
    const auto value = support::parse_non_negative(text);
    if (!value)
        return std::nullopt;
    return *value * scale;
}

std::optional<double> parse_begin_time(std::string_view text) {
    if (text.find('-') == std::string_view::npos)
        return support::parse_non_negative(text);
    std::size_t pos = 0;
    const auto number = [&](std::size_t digits, int low, int high) -> std::optional<int> {
        if (pos + digits > text.size())
            return std::nullopt;
        int v = 0;
        for (std::size_t i = 0; i < digits; ++i) {
            const char c = text[pos + i];
            if (c < '0' || c > '9')
                return std::nullopt;
            v = v * 10 + (c - '0');
        }
        pos += digits;
        if (v < low || v > high)
            return std::nullopt;
        return v;
    };
    const auto expect = [&](char c) { return pos < text.size() && text[pos++] == c; };
    std::tm tm{};
    const auto year = number(4, 1970, 9999);
    if (!year || !expect('-'))
        return std::nullopt;
    const auto month = number(2, 1, 12);
    if (!month || !expect('-'))
        return std::nullopt;
    const auto day = number(2, 1, 31);
    if (!day)
        return std::nullopt;
    tm.tm_year = *year - 1900;
    tm.tm_mon = *month - 1;
    tm.tm_mday = *day;
    double fraction = 0;
    if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
        ++pos;
        const auto hour = number(2, 0, 23);
        if (!hour || !expect(':'))
            return std::nullopt;
        const auto minute = number(2, 0, 59);
        if (!minute)
            return std::nullopt;
        tm.tm_hour = *hour;
        tm.tm_min = *minute;
        if (pos < text.size() && text[pos] == ':') {
            ++pos;
            const auto second = number(2, 0, 60);
            if (!second)
                return std::nullopt;
            tm.tm_sec = *second;
            if (pos < text.size() && text[pos] == '.') {
                const std::size_t start = pos;
                ++pos;
                while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
                    ++pos;
                const auto f = support::parse_non_negative(text.substr(start, pos - start));
                if (!f || pos == start + 1)
                    return std::nullopt;
                fraction = *f;
            }
        }
    }
    std::time_t t = 0;
    if (pos == text.size()) {
        tm.tm_isdst = -1;
        t = std::mktime(&tm); // no zone: local time
    } else {
        int offset = 0;
        if (text[pos] == 'Z') {
            ++pos;
        } else if (text[pos] == '+' || text[pos] == '-') {
            const int sign = text[pos++] == '-' ? -1 : 1;
            const auto hours = number(2, 0, 23);
            if (!hours || !expect(':'))
                return std::nullopt;
            const auto minutes = number(2, 0, 59);
            if (!minutes)
                return std::nullopt;
            offset = sign * (*hours * 3600 + *minutes * 60);
        }
        if (pos != text.size())
            return std::nullopt;
        t = timegm(&tm) - offset;
    }
    if (t < 0)
        return std::nullopt;
    return static_cast<double>(t) + fraction;
}

boost::json::value attribute_value(std::string_view text) {
    boost::json::error_code ec;
    auto v = support::parse_json(text, ec, Limits{}.effective_depth());
    if (ec)
        return boost::json::value(text);
    return v;
}

} // namespace jobspec
