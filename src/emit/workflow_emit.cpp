// A resolved workflow as JSON and as Graphviz DOT.
#include <jobspec/emit.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <fmt/format.h>

#include <jobspec/fluid.hpp>

#include "emit/dot_text.hpp"

namespace jobspec {

using emit::dot_quoted;

boost::json::value to_json_value(const Workflow& workflow) {
    boost::json::array jobs;
    for (const auto& job : workflow.jobs) {
        boost::json::object o;
        o.emplace("name", job.name);
        if (job.id)
            o.emplace("id", encode_fluid(*job.id, FluidEncoding::f58));
        if (!job.external)
            o.emplace("user", job.user);
        else
            o.emplace("external", true);
        jobs.push_back(std::move(o));
    }
    boost::json::array edges;
    for (const auto& e : workflow.edges) {
        boost::json::object o;
        o.emplace("from", workflow.jobs[e.from].name);
        o.emplace("to", workflow.jobs[e.to].name);
        o.emplace("scheme", e.scheme);
        o.emplace("value", e.value);
        edges.push_back(std::move(o));
    }
    boost::json::array order;
    for (const std::size_t i : workflow.order)
        order.emplace_back(workflow.jobs[i].name);
    boost::json::object out;
    out.emplace("jobs", std::move(jobs));
    out.emplace("edges", std::move(edges));
    out.emplace("order", std::move(order));
    return out;
}

std::string to_dot(const Workflow& workflow) {
    std::string out = "digraph workflow {\n  rankdir=TB;\n  node [shape=box, style=rounded];\n";
    for (const auto& job : workflow.jobs)
        out += fmt::format("  {}{};\n", dot_quoted(job.name),
                           job.external ? " [style=dashed, tooltip=\"not in this workflow\"]" : "");
    for (const auto& e : workflow.edges)
        out +=
            fmt::format("  {} -> {} [label={}];\n", dot_quoted(workflow.jobs[e.from].name),
                        dot_quoted(workflow.jobs[e.to].name), dot_quoted(e.scheme + ":" + e.value));
    return out + "}\n";
}

} // namespace jobspec
