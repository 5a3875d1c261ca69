// Resource graphs and jobspecs as Graphviz pictures: a box per vertex, a cluster per slot.
#include <jobspec/emit.hpp>

#include <map>

#include <fmt/format.h>

#include "emit/dot_text.hpp"

namespace jobspec {

namespace {

using emit::dot_quoted;

/// Where an edge to a drawn vertex ends: a node, and the cluster it stands for when the
/// vertex is a slot.
struct Anchor {
    std::string node;
    std::string cluster;
};

/// A property's value as a label shows it: strings bare, anything else as JSON.
std::string property_text(const boost::json::value& value) {
    if (value.is_string())
        return std::string(value.get_string());
    std::string json = to_json_text(value);
    json.pop_back();
    return json;
}

/// "memory ×4 GB", then a line per other key ("label: db", "exclusive").
std::string vertex_label(const ResourceVertex& v, bool slot_title) {
    std::string label = v.type;
    if (slot_title) {
        if (auto name = v.label())
            label += " " + std::string(*name);
    }
    label += " \u00d7" + v.count.format();
    if (const auto* unit = v.find("unit"))
        label += " " + property_text(unit->value);
    for (const auto& p : v.properties) {
        if (p.key == "unit" || (slot_title && p.key == "label"))
            continue;
        if (p.key == "exclusive")
            label += p.value.is_bool() && p.value.get_bool() ? "\nexclusive" : "\nshared";
        else
            label += "\n" + p.key + ": " + property_text(p.value);
    }
    return label;
}

bool is_exclusive(const ResourceVertex& v) {
    const auto* x = v.find("exclusive");
    return x != nullptr && x->value.is_bool() && x->value.get_bool();
}

std::string shorten(std::string text, std::size_t most) {
    if (text.size() > most)
        text = text.substr(0, most - 3) + "...";
    return text;
}

class ResourceDot {
public:
    std::string graph(const ResourceList& resources, const std::vector<Task>& tasks) {
        out_ = "digraph resources {\n  compound=true;\n  rankdir=TB;\n  ordering=out;\n"
               "  fontname=\"Helvetica\";\n"
               "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
               "  edge [arrowhead=none];\n";
        for (const auto& v : resources)
            vertex(v, 1);
        for (std::size_t i = 0; i < tasks.size(); ++i)
            task(tasks[i], i);
        return out_ + "}\n";
    }

private:
    Anchor vertex(const ResourceVertex& v, int depth) {
        const std::string pad(2 * static_cast<std::size_t>(depth), ' ');
        // Fluxion's xor_slot is a slot that is one of its siblings: a dashed frame.
        const bool xor_slot = v.type == "xor_slot";
        if (v.is_slot() || xor_slot) {
            Anchor anchor;
            anchor.cluster = fmt::format("cluster_{}", next_++);
            const std::string style =
                std::string(is_exclusive(v) ? ",bold" : "") + (xor_slot ? ",dashed" : "");
            out_ += fmt::format("{}subgraph {} {{\n{}  label={};\n{}  style={};\n", pad,
                                anchor.cluster, pad, dot_quoted(vertex_label(v, true)), pad,
                                style.empty() ? "rounded" : "\"rounded" + style + "\"");
            std::vector<std::string> row;
            for (const auto& child : v.with) {
                const Anchor inner = vertex(child, depth + 1);
                if (anchor.node.empty())
                    anchor.node = inner.node;
                if (inner.cluster.empty())
                    row.push_back(inner.node);
            }
            // Keep what the slot holds in source order, left to right.
            if (row.size() > 1) {
                out_ += pad + "  { rank=same; ";
                for (std::size_t i = 0; i < row.size(); ++i)
                    out_ += (i > 0 ? " -> " : "") + row[i];
                out_ += " [style=invis]; }\n";
            }
            if (anchor.node.empty()) {
                anchor.node = fmt::format("v{}", next_++);
                out_ += fmt::format("{}  {} [shape=point];\n", pad, anchor.node);
            }
            out_ += pad + "}\n";
            if (auto name = v.label())
                slots_.emplace(std::string(*name), anchor);
            return anchor;
        }
        Anchor anchor;
        anchor.node = fmt::format("v{}", next_++);
        out_ += fmt::format("{}{} [label={}{}];\n", pad, anchor.node,
                            dot_quoted(vertex_label(v, false)),
                            is_exclusive(v) ? ", style=\"rounded,bold\"" : "");
        for (const auto& child : v.with) {
            const Anchor to = vertex(child, depth);
            out_ += fmt::format("{}{} -> {}{};\n", pad, anchor.node, to.node,
                                to.cluster.empty() ? "" : " [lhead=" + to.cluster + "]");
        }
        return anchor;
    }

    void task(const Task& t, std::size_t index) {
        std::string command;
        for (const auto& word : t.command)
            command += (command.empty() ? "" : " ") + word;
        std::string count;
        switch (t.count.kind) {
        case TaskCount::Kind::per_slot:
            count = fmt::format("{} per slot", t.count.count);
            break;
        case TaskCount::Kind::per_resource:
            count = fmt::format("{} per {}", t.count.count, t.count.resource_type);
            break;
        case TaskCount::Kind::total:
            count = fmt::format("{} in total", t.count.count);
            break;
        }
        const std::string id = fmt::format("t{}", index);
        out_ += fmt::format("  {} [shape=note, style=\"\", label={}];\n", id,
                            dot_quoted(shorten(command, 40) + "\n" + count));
        const auto slot = t.slot ? slots_.find(*t.slot) : slots_.end();
        if (slot != slots_.end())
            out_ += fmt::format("  {} -> {} [ltail={}, style=dashed, arrowhead=normal];\n",
                                slot->second.node, id, slot->second.cluster);
    }

    std::string out_;
    std::size_t next_ = 0;
    std::map<std::string, Anchor> slots_;
};

} // namespace

std::string to_dot(const ResourceList& resources) {
    return ResourceDot().graph(resources, {});
}

std::string to_dot(const Jobspec& jobspec) {
    return ResourceDot().graph(jobspec.resources, jobspec.tasks);
}

} // namespace jobspec
