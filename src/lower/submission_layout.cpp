#include "lower/submission_layout.hpp"

#include <fmt/format.h>

#include "support/python_numbers.hpp"

namespace jobspec::lower {

namespace {

/// An integer option as flux holds it after conversion: absent, the empty string (kept
/// as text), or a number.
struct IntOption {
    bool given = false;
    bool empty = false;
    std::int64_t value = 0;

    bool truthy() const { return given && !empty && value != 0; }
};

std::optional<IntOption> convert(const std::optional<std::string>& text, std::string_view name,
                                 Diagnostics& d) {
    IntOption o;
    if (!text)
        return o;
    o.given = true;
    if (text->empty()) {
        o.empty = true;
        return o;
    }
    const auto v = support::python_int(*text);
    if (!v) {
        d.add(Code::submit_value, fmt::format("--{}: invalid int value '{}'", name, *text));
        return std::nullopt;
    }
    o.value = *v;
    return o;
}

ResourceVertex vertex(std::string_view type, std::int64_t count) {
    ResourceVertex v;
    v.type = type;
    v.count = Count(static_cast<std::uint64_t>(count));
    return v;
}

ResourceVertex slot(std::int64_t count, std::int64_t cores, std::int64_t gpus) {
    ResourceVertex s = vertex("slot", count);
    s.with.push_back(vertex("core", cores));
    if (gpus >= 1)
        s.with.push_back(vertex("gpu", gpus));
    s.has_with = true;
    s.properties.push_back({"label", "task", {}, {}});
    return s;
}

ResourceList placed(std::optional<std::int64_t> nodes, bool exclusive, ResourceVertex s) {
    ResourceList out;
    if (!nodes) {
        out.push_back(std::move(s));
        return out;
    }
    ResourceVertex node = vertex("node", *nodes);
    if (exclusive)
        node.properties.push_back({"exclusive", true, {}, {}});
    node.with.push_back(std::move(s));
    node.has_with = true;
    out.push_back(std::move(node));
    return out;
}

bool fail(Diagnostics& d, Code code, std::string message) {
    d.add(code, std::move(message));
    return false;
}

/// Per-task layout (run/submit without per-resource options; batch/alloc slots).
bool per_task(IntOption n, IntOption nodes, IntOption c, IntOption g, bool x, bool slots,
              SubmissionLayout& out, Diagnostics& d) {
    if (!n.truthy() && nodes.truthy()) {
        n = nodes;
        x = true;
    }
    if (!n.truthy())
        n = IntOption{true, false, 1};
    if (!slots && !c.truthy())
        c = IntOption{true, false, 1};
    if (slots && !c.given)
        c = IntOption{true, false, 1};
    if (n.value < 1)
        return fail(d, Code::submit_layout, "task count must be a integer >= 1");
    if (c.empty || c.value < 1)
        return fail(d, Code::submit_layout, "cores per task must be an integer >= 1");
    if (g.given && (g.empty || g.value < 0))
        return fail(d, Code::submit_layout, "gpus per task must be an integer >= 0");
    std::optional<std::int64_t> node_count;
    if (nodes.given) {
        if (nodes.empty || nodes.value < 1)
            return fail(d, Code::submit_layout, "node count must be an integer >= 1 (if set)");
        if (nodes.value > n.value)
            return fail(d, Code::submit_layout, "node count must not be greater than task count");
        node_count = nodes.value;
    } else if (x) {
        return fail(d, Code::submit_layout, "exclusive can only be set with a node count");
    }
    const std::int64_t per_node = node_count ? (n.value + *node_count - 1) / *node_count : n.value;
    out.resources = placed(node_count, x, slot(per_node, c.value, g.given ? g.value : 0));
    if (node_count && n.value % *node_count != 0)
        out.count = {TaskCount::Kind::total, static_cast<std::uint64_t>(n.value), {}};
    return true;
}

bool per_resource(const SubmitOptions& o, IntOption n, IntOption nodes, IntOption c, IntOption g,
                  IntOption cores, IntOption tpn, IntOption tpc, IntOption gpn,
                  SubmissionLayout& out, Diagnostics& d) {
    bool x = o.exclusive;
    if (tpn.given && tpc.given)
        return fail(d, Code::submit_layout,
                    "Do not specify both the number of tasks per node and per core");
    if (tpn.given && (tpn.empty || tpn.value < 1))
        return fail(d, Code::submit_layout, "--tasks-per-node must be >= 1");
    if (tpc.given && (tpc.empty || tpc.value < 1))
        return fail(d, Code::submit_layout, "--tasks-per-core must be >= 1");
    if (gpn.truthy() && !nodes.given)
        return fail(d, Code::submit_layout, "--gpus-per-node requires --nodes");
    if (n.given || c.given || g.truthy())
        return fail(d, Code::submit_layout,
                    "Per-resource options can't be used with per-task options. (See --help for "
                    "details)");
    if (nodes.given && !cores.given)
        x = true;
    if (cores.given && (cores.empty || cores.value < 1))
        return fail(d, Code::submit_layout, "ncores must be an integer >= 1");
    if (gpn.given && (gpn.empty || gpn.value < 0))
        return fail(d, Code::submit_layout, "gpus_per_node must be an integer >= 0");
    if (gpn.given && !nodes.given)
        return fail(d, Code::submit_layout, "gpus_per_node must be specified with nnodes");
    if (nodes.given && (nodes.empty || nodes.value < 1))
        return fail(d, Code::submit_layout, "nnodes must be an integer >= 1");
    if (x && !nodes.given)
        return fail(d, Code::submit_layout, "exclusive can only be set with a node count");
    const std::int64_t gpus = gpn.given ? gpn.value : 0;
    if (nodes.given && cores.given) {
        if (cores.value < nodes.value)
            return fail(d, Code::submit_layout, "number of cores cannot be less than nnodes");
        if (cores.value % nodes.value != 0)
            return fail(d, Code::submit_layout,
                        "number of cores must be evenly divisible by node count");
        out.resources = placed(nodes.value, x, slot(1, cores.value / nodes.value, gpus));
    } else if (cores.given) {
        out.resources = placed(std::nullopt, false, slot(cores.value, 1, 0));
    } else if (nodes.given) {
        out.resources = placed(nodes.value, x, slot(1, 1, gpus));
    } else {
        return fail(d, Code::submit_layout, "must specify node or core count with per_resource");
    }
    if (tpn.given || tpc.given) {
        boost::json::object pr;
        pr["type"] = tpn.given ? "node" : "core";
        pr["count"] = tpn.given ? tpn.value : tpc.value;
        out.per_resource = std::move(pr);
    }
    return true;
}

} // namespace

std::optional<SubmissionLayout> submission_layout(const SubmitOptions& o, bool force_one_node,
                                                  Diagnostics& d) {
    const bool slots = o.command == SubmitCommand::batch || o.command == SubmitCommand::alloc;
    const std::optional<std::string> nodes_text = force_one_node ? std::optional<std::string>("1")
                                                                 : o.nodes;
    auto n = convert(o.ntasks, slots ? "nslots" : "ntasks", d);
    auto nodes = n ? convert(nodes_text, "nodes", d) : std::nullopt;
    auto c = nodes ? convert(o.cores_per_task, slots ? "cores-per-slot" : "cores-per-task", d)
                   : std::nullopt;
    auto g = c ? convert(o.gpus_per_task, slots ? "gpus-per-slot" : "gpus-per-task", d)
               : std::nullopt;
    if (!g)
        return std::nullopt;
    SubmissionLayout out;
    if (slots) {
        if (!n->truthy() && !nodes->truthy()) {
            d.add(Code::submit_layout, "Number of slots to allocate must be specified");
            return std::nullopt;
        }
        if (!per_task(*n, *nodes, *c, *g, o.exclusive, true, out, d))
            return std::nullopt;
        return out;
    }
    auto cores = convert(o.cores, "cores", d);
    auto tpn = cores ? convert(o.tasks_per_node, "tasks-per-node", d) : std::nullopt;
    auto tpc = tpn ? convert(o.tasks_per_core, "tasks-per-core", d) : std::nullopt;
    auto gpn = tpc ? convert(o.gpus_per_node, "gpus-per-node", d) : std::nullopt;
    if (!gpn)
        return std::nullopt;
    const bool resource_mode = cores->given || tpn->given || tpc->given || gpn->given;
    const bool ok = resource_mode
                        ? per_resource(o, *n, *nodes, *c, *g, *cores, *tpn, *tpc, *gpn, out, d)
                        : per_task(*n, *nodes, *c, *g, o.exclusive, false, out, d);
    if (!ok)
        return std::nullopt;
    return out;
}

} // namespace jobspec::lower
