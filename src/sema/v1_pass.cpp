#include "sema/v1_pass.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "support/json_pointer.hpp"

namespace jobspec::sema {

namespace {

using support::JsonPointer;
using support::PointerScope;

constexpr std::array<std::string_view, 4> v1_graphs = {"slot>core", "node>slot>core",
                                                       "slot>(core,gpu)", "node>slot>(core,gpu)"};
constexpr std::string_view v1_graph_list =
    "slot>core, node>slot>core, slot>(core,gpu) or node>slot>(core,gpu)";
constexpr std::size_t longest_signature = 80;

/// "node>slot>(core,gpu)": the graph below a vertex, as RFC 25 writes it.
std::string signature(const ResourceVertex& v) {
    std::string s = v.type;
    if (v.with.empty())
        return s;
    s += '>';
    if (v.with.size() == 1)
        return s + signature(v.with.front());
    s += '(';
    for (std::size_t i = 0; i < v.with.size() && s.size() < longest_signature; ++i)
        s += (i > 0 ? "," : "") + signature(v.with[i]);
    return s + ')';
}

/// The keys RFC 25's schema allows in a vertex of this type, besides type and count.
bool v1_key(std::string_view type, std::string_view key) {
    if (key == "unit")
        return true;
    if (key == "exclusive")
        return type == "node" || type == "slot";
    if (key == "label")
        return type == "slot";
    return false;
}

class V1Checker {
public:
    V1Checker(const Jobspec& jobspec, Diagnostics& diagnostics)
        : js_(jobspec), diags_(diagnostics) {}

    void run() {
        if (js_.version != 1) {
            PointerScope at(ptr_, "version");
            report(Code::v1_version, fmt::format("version must be 1, not {}", js_.version),
                   js_.version_range);
        }
        resources();
        tasks();
        attributes();
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }

    void resources() {
        PointerScope at(ptr_, "resources");
        if (js_.resources.size() != 1) {
            report(
                Code::v1_resources,
                fmt::format("resources must hold exactly one vertex, not {}", js_.resources.size()),
                js_.resources.empty() ? SourceRange{} : js_.resources.front().range);
            return;
        }
        const ResourceVertex& top = js_.resources.front();
        PointerScope top_at(ptr_, std::size_t{0});
        if (top.type != "node" && top.type != "slot") {
            report(Code::v1_resources,
                   fmt::format("the resource must be a node or a slot, not '{}'", top.type),
                   top.type_range);
            return;
        }
        std::string graph = signature(top);
        if (std::find(v1_graphs.begin(), v1_graphs.end(), graph) == v1_graphs.end()) {
            if (graph.size() > longest_signature)
                graph = graph.substr(0, longest_signature) + "...";
            report(Code::v1_graph_shape, fmt::format("{} is not one of {}", graph, v1_graph_list),
                   top.range);
        }
        vertex(top);
    }

    void vertex(const ResourceVertex& v) {
        if (!v.count.is_fixed() || v.count_is_string) {
            PointerScope at(ptr_, "count");
            report(Code::v1_count,
                   v.count.is_fixed()
                       ? fmt::format("count must be an integer in V1, not the string '{}'",
                                     v.count.format())
                       : fmt::format("count must be a fixed integer in V1, not '{}'",
                                     v.count.format()),
                   v.count_range);
        }
        for (const auto& p : v.properties) {
            if (v1_key(v.type, p.key))
                continue;
            PointerScope at(ptr_, p.key);
            report(Code::v1_vertex_key,
                   fmt::format("'{}' is not allowed in a V1 '{}' vertex", p.key, v.type),
                   p.key_range,
                   v.type == "core" || v.type == "gpu"
                       ? "core and gpu vertices take only type, count and unit"
                       : "exclusive is allowed on node and slot, label on slot");
        }
        PointerScope at(ptr_, "with");
        for (std::size_t i = 0; i < v.with.size(); ++i) {
            PointerScope child_at(ptr_, i);
            vertex(v.with[i]);
        }
    }

    void tasks() {
        PointerScope at(ptr_, "tasks");
        if (js_.tasks.size() != 1) {
            report(Code::v1_tasks, fmt::format("V1 has exactly one task, not {}", js_.tasks.size()),
                   js_.tasks.size() > 1 ? js_.tasks[1].range : SourceRange{});
            if (js_.tasks.empty())
                return;
        }
        const Task& t = js_.tasks.front();
        PointerScope task_at(ptr_, std::size_t{0});
        if (t.distribution) {
            PointerScope key_at(ptr_, "distribution");
            report(Code::v1_task_key, "'distribution' is not allowed in a V1 task", t.range,
                   "a V1 task has only command, slot and count");
        }
        if (t.attributes) {
            PointerScope key_at(ptr_, "attributes");
            report(Code::v1_task_key, "task 'attributes' are not allowed in V1", t.range,
                   "a V1 task has only command, slot and count");
        }
        PointerScope count_at(ptr_, "count");
        if (t.count.keys > 1)
            report(Code::v1_task_count,
                   fmt::format("count must have exactly one key in V1, not {}", t.count.keys),
                   t.count_range, "keep per_slot or total, and nothing else");
        switch (t.count.kind) {
        case TaskCount::Kind::per_resource:
            report(Code::v1_task_count, "V1 does not support 'per_resource'", t.count_range,
                   "use per_slot: 1 or total");
            break;
        case TaskCount::Kind::per_slot:
            if (t.count.count != 1)
                report(Code::v1_task_count,
                       fmt::format("per_slot must be 1 in V1, not {}", t.count.count),
                       t.count_range);
            break;
        case TaskCount::Kind::total:
            if (!js_.resources.empty() && js_.resources.front().type == "node" &&
                js_.resources.front().count.is_fixed() &&
                t.count.count < js_.resources.front().count.fixed())
                report(Code::v1_task_count,
                       fmt::format("total {} is below the node count {}", t.count.count,
                                   js_.resources.front().count.fixed()),
                       t.count_range, "V1 needs at least one task per node");
            break;
        }
    }

    void attributes() {
        PointerScope at(ptr_, "attributes");
        const auto& system = js_.attributes.system;
        if (!system) {
            report(Code::v1_attributes, "V1 attributes must have 'system'", js_.range,
                   "add attributes.system.duration (0 means unlimited)");
            return;
        }
        if (system->readable && system->find("duration") == nullptr) {
            PointerScope system_at(ptr_, "system");
            report(Code::v1_duration, "V1 requires 'duration' in the system attributes",
                   system->range, "set it in seconds; 0 means unlimited");
        }
    }

    const Jobspec& js_;
    Diagnostics& diags_;
    JsonPointer ptr_;
};

} // namespace

void check_v1(const Jobspec& jobspec, Diagnostics& diagnostics) {
    V1Checker(jobspec, diagnostics).run();
}

} // namespace jobspec::sema
