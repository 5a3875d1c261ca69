// Fluxion's resource graph as JGF.
#include <jobspec/emit.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace jobspec {

namespace {

boost::json::object strings(const std::vector<std::pair<std::string, std::string>>& entries) {
    boost::json::object out;
    for (const auto& [key, value] : entries)
        out[key] = value;
    return out;
}

} // namespace

boost::json::value to_json_value(const FluxionGraph& graph) {
    boost::json::array nodes;
    nodes.reserve(graph.vertices.size());
    for (const auto& v : graph.vertices) {
        boost::json::object metadata;
        metadata.emplace("type", v.type);
        metadata.emplace("basename", v.basename);
        metadata.emplace("name", v.name);
        metadata.emplace("id", v.id);
        metadata.emplace("uniq_id", v.uniq_id);
        metadata.emplace("rank", v.rank);
        metadata.emplace("exclusive", v.exclusive);
        if (!v.unit.empty())
            metadata.emplace("unit", v.unit);
        metadata.emplace("size", v.size);
        if (!v.up)
            metadata.emplace("status", 1);
        if (!v.properties.empty())
            metadata.emplace("properties", strings(v.properties));
        metadata.emplace("paths", strings(v.paths));
        nodes.push_back(boost::json::object{{"id", v.key}, {"metadata", std::move(metadata)}});
    }
    boost::json::array edges;
    for (const auto& v : graph.vertices)
        if (v.parent != FluxionVertex::none)
            edges.push_back(
                boost::json::object{{"source", graph.vertices[v.parent].key}, {"target", v.key}});
    for (const auto& e : graph.other_edges)
        edges.push_back(boost::json::object{
            {"source", graph.vertices[e.source].key},
            {"target", graph.vertices[e.target].key},
            {"metadata", boost::json::object{{"subsystem", e.subsystem}}}});
    return boost::json::object{
        {"graph", boost::json::object{{"nodes", std::move(nodes)}, {"edges", std::move(edges)}}}};
}

} // namespace jobspec
