// A resource set as R (RFC 20 version 1) JSON.
#include <jobspec/emit.hpp>

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace jobspec {

boost::json::value to_json_value(const ResourceSet& set) {
    std::vector<const ResourceSet::Group*> ordered;
    for (const auto& g : set.groups())
        ordered.push_back(&g);
    std::sort(ordered.begin(), ordered.end(),
              [](const auto* x, const auto* y) { return x->ranks.first() < y->ranks.first(); });
    boost::json::array lite;
    lite.reserve(ordered.size());
    for (const auto* g : ordered) {
        boost::json::object children;
        children.emplace("core", g->cores.format());
        if (!g->gpus.empty())
            children.emplace("gpu", g->gpus.format());
        boost::json::object entry;
        entry.emplace("rank", g->ranks.format());
        entry.emplace("children", std::move(children));
        lite.push_back(std::move(entry));
    }
    boost::json::object execution;
    execution.emplace("R_lite", std::move(lite));
    boost::json::array nodelist;
    if (!set.nodelist().empty())
        nodelist.emplace_back(set.nodelist().encode());
    execution.emplace("nodelist", std::move(nodelist));
    if (!set.properties().empty()) {
        boost::json::object properties;
        for (const auto& [name, ranks] : set.properties())
            properties.emplace(name, ranks.format());
        execution.emplace("properties", std::move(properties));
    }
    if (set.nslots)
        execution.emplace("nslots", *set.nslots);
    execution.emplace("starttime", set.starttime);
    execution.emplace("expiration", set.expiration);
    boost::json::object r;
    r.emplace("version", 1);
    r.emplace("execution", std::move(execution));
    if (!set.scheduling.is_null()) {
        boost::json::value scheduling = set.scheduling;
        if (auto* children =
                set.treepool ? scheduling.as_object().if_contains("children") : nullptr) {
            boost::json::array entries;
            for (const auto& entry : *set.treepool)
                entries.push_back(
                    boost::json::object{{"ranks", entry.ranks.format()}, {"topo", entry.topo}});
            *children = std::move(entries);
        }
        if (set.fluxion_graph)
            if (auto* object = scheduling.if_object())
                (*object)["graph"] = to_json_value(*set.fluxion_graph).as_object()["graph"];
        r.emplace("scheduling", std::move(scheduling));
    }
    return r;
}

} // namespace jobspec
