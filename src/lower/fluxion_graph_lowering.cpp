// Fluxion's resource graph (JGF) document tree -> FluxionGraph, every problem located.
#include "lower/fluxion_graph_lowering.hpp"

#include <charconv>
#include <unordered_map>

#include <fmt/format.h>

#include <jobspec/limits.hpp>

#include "support/json_pointer.hpp"

namespace jobspec::lower {

namespace {

using support::JsonPointer;
using support::PointerScope;
using syntax::DocNode;

/// The integer a string holds in full ("12"), or nothing.
std::optional<std::int64_t> whole_number(std::string_view s) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

class GraphReader {
public:
    GraphReader(std::string_view base, Diagnostics& d) : ptr_(base), diags_(d) {}

    std::optional<FluxionGraph> read(const DocNode& jgf) {
        const std::size_t errors = diags_.error_count();
        const DocNode* graph = member(jgf, "graph", "a JGF document", DocNode::Kind::mapping);
        if (graph == nullptr)
            return std::nullopt;
        PointerScope at(ptr_, "graph");
        const DocNode* nodes = member(*graph, "nodes", "graph", DocNode::Kind::sequence);
        const DocNode* edges = member(*graph, "edges", "graph", DocNode::Kind::sequence);
        if (nodes == nullptr || edges == nullptr)
            return std::nullopt;
        {
            PointerScope nodes_at(ptr_, "nodes");
            out_.vertices.reserve(nodes->elements().size());
            for (std::size_t i = 0; i < nodes->elements().size(); ++i) {
                PointerScope vertex_at(ptr_, i);
                vertex(nodes->elements()[i]);
            }
        }
        if (diags_.error_count() != errors)
            return std::nullopt;
        {
            PointerScope edges_at(ptr_, "edges");
            for (std::size_t i = 0; i < edges->elements().size(); ++i) {
                PointerScope edge_at(ptr_, i);
                edge(edges->elements()[i]);
            }
        }
        if (diags_.error_count() != errors || !tree(jgf))
            return std::nullopt;
        out_.index();
        return std::move(out_);
    }

private:
    void report(Code code, std::string message, SourceRange range) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()});
    }

    /// The member `key` of `v` (named `what`) if it is of `kind`; else nothing, reported.
    const DocNode* member(const DocNode& v, std::string_view key, std::string_view what,
                          DocNode::Kind kind) {
        if (!v.is_mapping()) {
            report(Code::graph_type,
                   fmt::format("{} must be a dictionary, not {}", what, syntax::describe(v.kind())),
                   v.range);
            return nullptr;
        }
        const auto* m = v.find(key);
        if (m == nullptr) {
            report(Code::graph_missing_key, fmt::format("{} has no '{}'", what, key), v.range);
            return nullptr;
        }
        if (m->value.kind() != kind) {
            PointerScope at(ptr_, key);
            report(Code::graph_type,
                   fmt::format("'{}' must be {}, not {}", key, syntax::describe(kind),
                               syntax::describe(m->value.kind())),
                   m->value.range);
            return nullptr;
        }
        return &m->value;
    }

    /// An integer member's value into `into` (kept when absent); false when it is not one.
    bool integer(const DocNode& metadata, std::string_view key, std::int64_t& into) {
        const auto* m = metadata.find(key);
        if (m == nullptr)
            return true;
        if (m->value.kind() == DocNode::Kind::integer) {
            into = m->value.integer();
            return true;
        }
        PointerScope at(ptr_, key);
        report(Code::graph_type,
               fmt::format("'{}' must be an integer, not {}", key,
                           syntax::describe(m->value.kind())),
               m->value.range);
        return false;
    }

    bool string(const DocNode& metadata, std::string_view key, std::string& into) {
        const auto* m = metadata.find(key);
        if (m == nullptr)
            return true;
        if (m->value.is_string()) {
            into = m->value.text();
            return true;
        }
        PointerScope at(ptr_, key);
        report(Code::graph_type,
               fmt::format("'{}' must be a string, not {}", key, syntax::describe(m->value.kind())),
               m->value.range);
        return false;
    }

    /// A dictionary of strings (paths, properties) into `into`; null is none.
    bool strings(const DocNode& metadata, std::string_view key,
                 std::vector<std::pair<std::string, std::string>>& into) {
        const auto* m = metadata.find(key);
        if (m == nullptr || m->value.kind() == DocNode::Kind::null)
            return true;
        PointerScope at(ptr_, key);
        if (!m->value.is_mapping()) {
            report(Code::graph_type,
                   fmt::format("'{}' must be a dictionary, not {}", key,
                               syntax::describe(m->value.kind())),
                   m->value.range);
            return false;
        }
        bool ok = true;
        for (const auto& [name, name_range, value] : m->value.members()) {
            if (!value.is_string()) {
                PointerScope value_at(ptr_, name);
                report(Code::graph_type,
                       fmt::format("the value of {} '{}' must be a string, not {}",
                                   key == "paths" ? "path" : "property", name,
                                   syntax::describe(value.kind())),
                       value.range);
                ok = false;
                continue;
            }
            into.emplace_back(name, value.text());
        }
        return ok;
    }

    void vertex(const DocNode& node) {
        const DocNode* key = member(node, "id", "a vertex", DocNode::Kind::string);
        const DocNode* metadata = member(node, "metadata", "a vertex", DocNode::Kind::mapping);
        if (key == nullptr || metadata == nullptr)
            return;
        PointerScope at(ptr_, "metadata");
        FluxionVertex v;
        v.key = key->text();
        const DocNode* type = member(*metadata, "type", "metadata", DocNode::Kind::string);
        const bool has_paths =
            member(*metadata, "paths", "metadata", DocNode::Kind::mapping) != nullptr;
        std::int64_t status = 0;
        std::optional<std::int64_t> id, uniq_id;
        std::int64_t read_id = 0, read_uniq = 0;
        bool ok = type != nullptr && has_paths;
        ok &= string(*metadata, "basename", v.basename) && string(*metadata, "name", v.name) &&
              string(*metadata, "unit", v.unit);
        ok &= integer(*metadata, "id", read_id) && integer(*metadata, "uniq_id", read_uniq) &&
              integer(*metadata, "rank", v.rank) && integer(*metadata, "size", v.size) &&
              integer(*metadata, "status", status);
        ok &= strings(*metadata, "properties", v.properties) &&
              strings(*metadata, "paths", v.paths);
        if (const auto* x = metadata->find("exclusive")) {
            if (x->value.kind() == DocNode::Kind::boolean) {
                v.exclusive = x->value.boolean();
            } else {
                PointerScope x_at(ptr_, "exclusive");
                report(Code::graph_type,
                       fmt::format("'exclusive' must be a boolean, not {}",
                                   syntax::describe(x->value.kind())),
                       x->value.range);
                ok = false;
            }
        }
        if (!ok)
            return;
        v.type = type->text();
        if (metadata->find("id") != nullptr)
            id = read_id;
        if (metadata->find("uniq_id") != nullptr)
            uniq_id = read_uniq;
        else
            uniq_id = whole_number(v.key);
        if (!uniq_id) {
            PointerScope id_at(ptr_, "uniq_id");
            report(Code::graph_id,
                   fmt::format("vertex '{}' has no uniq_id, and its id is not a number to take "
                               "it from",
                               v.key),
                   key->range);
            return;
        }
        v.uniq_id = *uniq_id;
        v.id = id ? *id : *uniq_id;
        if (!id && v.type == "node" && !v.name.empty()) {
            std::size_t digits = v.name.size();
            while (digits > 0 && v.name[digits - 1] >= '0' && v.name[digits - 1] <= '9')
                --digits;
            if (auto n = whole_number(std::string_view(v.name).substr(digits)))
                v.id = *n;
        }
        if (v.basename.empty())
            v.basename = v.type;
        if (v.name.empty())
            v.name = fmt::format("{}{}", v.basename, v.id);
        if (v.size < 1) {
            PointerScope size_at(ptr_, "size");
            report(Code::graph_size,
                   fmt::format("vertex '{}' has size {}: a vertex holds at least 1", v.key, v.size),
                   metadata->find("size")->value.range);
            return;
        }
        v.up = status == 0;
        const auto [it, fresh] =
            index_.emplace(v.key, static_cast<std::uint32_t>(out_.vertices.size()));
        if (!fresh) {
            ptr_.pop(); // at the vertex's id, not its metadata
            ptr_.push("id");
            report(Code::graph_duplicate_id,
                   fmt::format("vertex id '{}' is already the id of graph.nodes[{}]", v.key,
                               it->second),
                   key->range);
            ptr_.pop();
            ptr_.push("metadata");
            return;
        }
        out_.vertices.push_back(std::move(v));
    }

    /// The vertex an edge names at `key`, or nothing (reported).
    std::optional<std::uint32_t> end(const DocNode& e, std::string_view key) {
        const DocNode* name = member(e, key, "an edge", DocNode::Kind::string);
        if (name == nullptr)
            return std::nullopt;
        const auto it = index_.find(name->text());
        if (it == index_.end()) {
            PointerScope at(ptr_, key);
            report(Code::graph_dangling_edge,
                   fmt::format("the edge's {} '{}' is not a vertex of the graph", key, name->text()),
                   name->range);
            return std::nullopt;
        }
        return it->second;
    }

    void edge(const DocNode& e) {
        const auto source = end(e, "source");
        const auto target = end(e, "target");
        std::string subsystem = "containment";
        if (const auto* metadata = e.find("metadata"); metadata != nullptr) {
            PointerScope at(ptr_, "metadata");
            if (metadata->value.is_mapping()) {
                if (!string(metadata->value, "subsystem", subsystem))
                    return;
            } else if (metadata->value.kind() != DocNode::Kind::null) {
                report(Code::graph_type,
                       fmt::format("an edge's 'metadata' must be a dictionary, not {}",
                                   syntax::describe(metadata->value.kind())),
                       metadata->value.range);
                return;
            }
        }
        if (!source || !target)
            return;
        if (subsystem != "containment") {
            out_.other_edges.push_back({*source, *target, std::move(subsystem)});
            return;
        }
        auto& child = out_.vertices[*target];
        if (child.parent != FluxionVertex::none || *source == *target) {
            PointerScope at(ptr_, "target");
            report(*source == *target ? Code::graph_cycle : Code::graph_parent,
                   *source == *target
                       ? fmt::format("vertex '{}' contains itself", child.key)
                       : fmt::format("vertex '{}' is already contained by '{}': containment "
                                     "is a tree",
                                     child.key, out_.vertices[child.parent].key),
                   e.find("target")->value.range);
            return;
        }
        child.parent = *source;
        out_.vertices[*source].children.push_back(*target);
    }

    /// The root, the depth bound, and the vertices outside the tree.
    bool tree(const DocNode& jgf) {
        std::vector<std::uint32_t> roots;
        for (std::uint32_t i = 0; i < out_.vertices.size(); ++i) {
            const auto path = out_.vertices[i].containment_path();
            if (!path.empty() && path.front() == '/' && path.find('/', 1) == std::string_view::npos)
                roots.push_back(i);
        }
        PointerScope at(ptr_, "nodes");
        if (roots.size() != 1) {
            report(Code::graph_root,
                   roots.empty() ? std::string("the graph has no containment root (a vertex whose "
                                               "containment path has one level, as \"/cluster0\")")
                                 : fmt::format("the graph has {} containment roots ('{}' and "
                                               "'{}'): it has one",
                                               roots.size(), out_.vertices[roots[0]].key,
                                               out_.vertices[roots[1]].key),
                   jgf.range);
            return false;
        }
        out_.root = roots.front();
        if (const auto p = out_.vertices[out_.root].parent; p != FluxionVertex::none) {
            report(Code::graph_parent,
                   fmt::format("the root '{}' is contained by '{}'", out_.vertices[out_.root].key,
                               out_.vertices[p].key),
                   jgf.range);
            return false;
        }
        // Depth first from the root, iteratively, each vertex once (it has one parent).
        // mark: 0 not reached yet, 1 in the tree, w + 2 met by the w-th walk below.
        std::vector<std::uint32_t> mark(out_.vertices.size(), 0);
        std::vector<std::pair<std::uint32_t, std::size_t>> stack{{out_.root, 1}};
        mark[out_.root] = 1;
        while (!stack.empty()) {
            const auto [u, depth] = stack.back();
            stack.pop_back();
            if (depth > Limits::depth_ceiling) {
                report(Code::limit_depth,
                       fmt::format("containment is more than {} levels deep (at '{}')",
                                   Limits::depth_ceiling, out_.vertices[u].key),
                       jgf.range);
                return false;
            }
            for (auto c : out_.vertices[u].children) {
                mark[c] = 1;
                stack.emplace_back(c, depth + 1);
            }
        }
        // The rest, walking up parents from each: a walk that meets itself is a cycle;
        // the others end at a vertex outside the tree, or at an earlier walk.
        std::size_t outside = 0;
        std::uint32_t first = FluxionVertex::none;
        for (std::uint32_t i = 0; i < out_.vertices.size(); ++i) {
            if (mark[i] != 0)
                continue;
            const std::uint32_t walk = i + 2;
            std::uint32_t u = i;
            while (u != FluxionVertex::none && mark[u] == 0) {
                mark[u] = walk;
                u = out_.vertices[u].parent;
            }
            if (u != FluxionVertex::none && mark[u] == walk) {
                report(Code::graph_cycle,
                       fmt::format("containment has a cycle through '{}'", out_.vertices[u].key),
                       jgf.range);
                return false;
            }
        }
        for (std::uint32_t i = 0; i < out_.vertices.size(); ++i)
            if (mark[i] != 1 && outside++ == 0)
                first = i;
        if (outside != 0)
            report(Code::graph_unreachable,
                   fmt::format("{} of the graph's vertices (the first '{}') are not under the "
                               "root '{}'; Fluxion never visits them",
                               outside, out_.vertices[first].key, out_.vertices[out_.root].key),
                   jgf.range);
        return true;
    }

    JsonPointer ptr_;
    Diagnostics& diags_;
    FluxionGraph out_;
    std::unordered_map<std::string, std::uint32_t> index_;
};

} // namespace

std::optional<FluxionGraph> lower_fluxion_graph(const DocNode& jgf, std::string_view base,
                                                Diagnostics& diagnostics) {
    return GraphReader(base, diagnostics).read(jgf);
}

bool is_jgf_document(const DocNode& doc) noexcept {
    return doc.is_mapping() && doc.find("graph") != nullptr && doc.find("version") == nullptr &&
           doc.find("execution") == nullptr;
}

} // namespace jobspec::lower
