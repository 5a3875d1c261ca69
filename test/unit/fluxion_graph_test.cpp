// Fluxion's resource graphs: JGF read as Fluxion reads it, and jobspecs matched on them as
// docs/FLUXION.md states.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

namespace {

using jobspec::FluxionGraph;
using jobspec::ResourceSet;

/// A JGF graph built vertex by vertex, each named and numbered by its type (in a node,
/// from 0 in each node).
class Jgf {
public:
    /// Adds a vertex under `parent` (an index, -1 for the root) and returns its index.
    int add(int parent, const std::string& type, const std::string& extra = "") {
        const int i = static_cast<int>(paths_.size());
        if (type == "node") // what is in a node is numbered in it, as Fluxion numbers cores
            std::erase_if(counts_, [](const auto& c) {
                return c.first != "node" && c.first != "rack" && c.first != "chassis" &&
                       c.first != "cluster";
            });
        const std::string name = fmt::format("{}{}", type, counts_[type]++);
        paths_.push_back(parent < 0 ? "/" + name : paths_[parent] + "/" + name);
        nodes_.push_back(fmt::format(
            R"({{"id":"{}","metadata":{{"type":"{}","id":{},"paths":{{"containment":"{}"}}{}}}}})",
            i, type, counts_[type] - 1, paths_.back(), extra.empty() ? "" : "," + extra));
        if (parent >= 0)
            edges_.push_back(fmt::format(R"({{"source":"{}","target":"{}"}})", parent, i));
        return i;
    }

    std::string text() const {
        return fmt::format(R"({{"graph":{{"nodes":[{}],"edges":[{}]}}}})",
                           fmt::join(nodes_, ","), fmt::join(edges_, ","));
    }

private:
    std::vector<std::string> nodes_, edges_, paths_;
    std::map<std::string, int> counts_;
};

/// cluster0 -> n nodes (rank i, name nodei) -> s sockets -> c cores, g gpus and m memory
/// vertices of `size` GB each.
Jgf cluster(int n, int s, int c, int g = 0, int m = 0, int size = 2,
            const std::string& node_extra = "") {
    Jgf j;
    const int root = j.add(-1, "cluster");
    for (int i = 0; i < n; ++i) {
        const int node = j.add(root, "node",
                               fmt::format(R"("rank":{},"name":"node{}"{})", i, i,
                                           node_extra.empty() ? "" : "," + node_extra));
        for (int k = 0; k < s; ++k) {
            const int socket = j.add(node, "socket");
            for (int x = 0; x < c; ++x)
                j.add(socket, "core");
            for (int x = 0; x < g; ++x)
                j.add(socket, "gpu");
            for (int x = 0; x < m; ++x)
                j.add(socket, "memory", fmt::format(R"("size":{},"unit":"GB")", size));
        }
    }
    return j;
}

ResourceSet graph(const std::string& text) {
    auto r = jobspec::read_resource_set(text);
    REQUIRE_MESSAGE(r.ok(), (r.diagnostics().size() ? r.diagnostics()[0].message : ""));
    REQUIRE(r.value().fluxion_graph);
    return r.value();
}

std::string job(const std::string& resources, const std::string& system = "duration: 0") {
    return "version: 9999\nresources: [" + resources +
           "]\ntasks: [{command: [app], slot: task, count: {per_slot: 1}}]\n"
           "attributes: {system: {" + system + "}}\n";
}

std::string slot(const std::string& count, const std::string& with) {
    return "{type: slot, count: " + count + ", label: task, with: [" + with + "]}";
}

/// What a match comes to: "allocated" with the vertices taken by type ("core 4 gpu 1"),
/// or the first diagnostic's "code: message".
struct Outcome {
    bool ok = false;
    std::string code, message, pointer;
    std::map<std::string, std::int64_t> taken; // type -> amount taken (sizes)
    std::map<std::string, std::int64_t> shared;
    ResourceSet alloc;
};

Outcome fit(const std::string& yaml, const ResourceSet& r, const jobspec::MatchOptions& o = {}) {
    jobspec::MatchOptions options = o;
    options.read.dialect = jobspec::Dialect::fluxion;
    auto alloc = jobspec::match_jobspec(yaml, r, options);
    Outcome out;
    out.ok = alloc.ok();
    for (const auto& d : alloc.diagnostics())
        if (d.severity == jobspec::Severity::error && out.code.empty()) {
            out.code = std::string(d.code_name());
            out.message = d.message;
            out.pointer = d.location.pointer;
        }
    if (alloc.ok()) {
        out.alloc = alloc.value();
        REQUIRE(out.alloc.fluxion_graph);
        for (const auto& v : out.alloc.fluxion_graph->vertices)
            (v.exclusive ? out.taken : out.shared)[v.type] += v.size;
    }
    return out;
}

} // namespace

TEST_CASE("fluxion graph - JGF read as Fluxion reads it, its defaults filled in") {
    const auto r = graph(
        R"({"graph":{"nodes":[
        {"id":"0","metadata":{"type":"cluster","paths":{"containment":"/c0"}}},
        {"id":"7","metadata":{"type":"node","name":"host42","rank":3,"paths":{"containment":"/c0/host42"},
         "properties":{"ssd":"yes"}}},
        {"id":"8","metadata":{"type":"memory","size":16,"unit":"GB","status":1,"paths":{"containment":"/c0/host42/m"}}},
        {"id":"x","metadata":{"type":"core","uniq_id":9,"id":5,"exclusive":true,"paths":{"containment":"/c0/host42/c"}}}],
        "edges":[{"source":"0","target":"7"},{"source":"7","target":"8","metadata":{"name":{"containment":"contains"}}},
        {"source":"7","target":"x"},{"source":"0","target":"7","metadata":{"subsystem":"power"}}]}})");
    const FluxionGraph& g = *r.fluxion_graph;
    REQUIRE(g.vertices.size() == 4);
    CHECK(g.root == 0);
    CHECK(g.vertices[0].name == "cluster0");     // basename (the type) and id
    CHECK(g.vertices[1].id == 42);               // a node's id from its name's digits
    CHECK(g.vertices[1].uniq_id == 7);           // from the vertex id
    CHECK(g.vertices[1].has_property("ssd"));
    CHECK(g.vertices[2].size == 16);
    CHECK(g.vertices[2].unit == "GB");
    CHECK_FALSE(g.vertices[2].up);               // status 1
    CHECK(g.vertices[3].uniq_id == 9);
    CHECK(g.vertices[3].exclusive);
    CHECK(g.vertices[1].children == std::vector<std::uint32_t>{2, 3}); // old-style edge metadata is containment
    REQUIRE(g.other_edges.size() == 1);
    CHECK(g.other_edges[0].subsystem == "power");
    // The JGF document as R: the node's rank, its core, host and property.
    CHECK(r.summary() == "rank3/core5");
    CHECK(r.nodelist().encode() == "host42");
    CHECK(r.properties().at("ssd").format() == "3");
}

TEST_CASE("fluxion graph - a node's own id wins over the digits of its name") {
    const auto r = graph(
        R"({"graph":{"nodes":[
        {"id":"0","metadata":{"type":"cluster","paths":{"containment":"/c0"}}},
        {"id":"1","metadata":{"type":"node","name":"host42","id":7,"rank":0,"paths":{"containment":"/c0/host42"}}},
        {"id":"2","metadata":{"type":"node","name":"host43","rank":1,"paths":{"containment":"/c0/host43"}}}],
        "edges":[{"source":"0","target":"1"},{"source":"0","target":"2"}]}})");
    REQUIRE(r.fluxion_graph->vertices.size() == 3);
    CHECK(r.fluxion_graph->vertices[1].id == 7);
    CHECK(r.fluxion_graph->vertices[1].name == "host42");
    CHECK(r.fluxion_graph->vertices[2].id == 43); // no id of its own: its name's digits
}

TEST_CASE("fluxion graph - nodes without ranks of their own are numbered in order") {
    auto j = cluster(3, 1, 2);
    // cluster() gives ranks; a graph whose nodes all have rank -1 is numbered instead
    const auto r = graph(std::regex_replace(j.text(), std::regex(R"("rank":\d+)"), R"("rank":-1)"));
    CHECK(r.summary() == "rank[0-2]/core[0-1]");
}

TEST_CASE("fluxion graph - written as Fluxion writes it, and read back the same") {
    const auto r = graph(cluster(2, 2, 2, 1, 1).text());
    const auto text = jobspec::to_json_text(jobspec::to_json_value(r));
    const auto again = graph(text);
    CHECK(jobspec::to_json_text(jobspec::to_json_value(again)) == text);
    CHECK(again.fluxion_graph->vertices.size() == r.fluxion_graph->vertices.size());
    // R with Fluxion's graph in its scheduling key, as an allocation of resource-query's
    CHECK(text.find(R"("scheduling":{"graph":{"nodes":[)") != std::string::npos);
}

TEST_CASE("fluxion graph - a down vertex stays down through writing and reading back") {
    auto j = cluster(2, 1, 1);
    auto text = j.text();
    const auto at = text.find(R"("rank":1)");
    REQUIRE(at != std::string::npos);
    text.insert(at, R"("status":1,)");
    const auto r = graph(text);
    const auto again = graph(jobspec::to_json_text(jobspec::to_json_value(r)));
    std::size_t down = 0;
    for (const auto& v : again.fluxion_graph->vertices)
        down += !v.up;
    CHECK(down == 1);
    REQUIRE(again.fluxion_graph->vertices.size() == r.fluxion_graph->vertices.size());
    for (std::size_t i = 0; i < r.fluxion_graph->vertices.size(); ++i)
        CHECK(again.fluxion_graph->vertices[i].up == r.fluxion_graph->vertices[i].up);
}

TEST_CASE("fluxion graph - what Fluxion cannot read is refused where it is") {
    struct Case {
        std::string jgf, code, pointer;
    };
    const std::string c = R"({"id":"0","metadata":{"type":"cluster","paths":{"containment":"/c"}}})";
    const std::vector<Case> cases{
        {R"({"graph":{"nodes":[]}})", "graph.missing-key", "/graph"},
        {R"({"graph":{"nodes":[)" + c + R"(,{"id":"1","metadata":{"type":"core","paths":{"containment":"/c/x"},"size":-2}}],"edges":[{"source":"0","target":"1"}]}})",
         "graph.size", "/graph/nodes/1/metadata/size"},
        {R"({"graph":{"nodes":[)" + c + R"(],"edges":[{"source":"0","target":"9"}]}})",
         "graph.dangling-edge", "/graph/edges/0/target"},
        {R"({"graph":{"nodes":[)" + c + "," + c + R"(],"edges":[]}})", "graph.duplicate-id",
         "/graph/nodes/1/id"},
        {R"({"graph":{"nodes":[{"id":"0","metadata":{"type":"cluster","paths":{"containment":"/c/d"}}}],"edges":[]}})",
         "graph.root", "/graph/nodes"},
        {R"({"graph":{"nodes":[)" + c + R"(,{"id":"a","metadata":{"type":"core","paths":{}}}],"edges":[]}})",
         "graph.id", "/graph/nodes/1/metadata/uniq_id"},
    };
    for (const auto& k : cases) {
        CAPTURE(k.jgf);
        auto r = jobspec::read_resource_set(k.jgf);
        REQUIRE_FALSE(r.ok());
        CHECK(r.diagnostics()[0].code_name() == k.code);
        CHECK(r.diagnostics()[0].location.pointer == k.pointer);
    }
    // Vertices outside the tree are a warning: Fluxion never visits them.
    auto r = jobspec::read_resource_set(
        R"({"graph":{"nodes":[)" + c +
        R"(,{"id":"1","metadata":{"type":"core","paths":{"containment":"/x/y"}}}],"edges":[]}})");
    REQUIRE(r.ok());
    CHECK(r.diagnostics()[0].code_name() == "graph.unreachable");
    // A node outside the tree is no rank of R (it was rank 1, with no cores).
    auto spare = jobspec::read_resource_set(
        R"({"graph":{"nodes":[{"id":"0","metadata":{"type":"cluster","paths":{"containment":"/c"}}},)"
        R"({"id":"1","metadata":{"type":"node","name":"node0","rank":0,"paths":{"containment":"/c/node0"}}},)"
        R"({"id":"2","metadata":{"type":"core","id":0,"paths":{"containment":"/c/node0/core0"}}},)"
        R"({"id":"3","metadata":{"type":"node","name":"spare0","rank":1,"paths":{"containment":"/x/spare0"}}}],)"
        R"("edges":[{"source":"0","target":"1"},{"source":"1","target":"2"}]}})");
    REQUIRE(spare.ok());
    CHECK(spare.diagnostics()[0].code_name() == "graph.unreachable");
    CHECK(spare.value().ranks().format() == "0");
    CHECK(spare.value().nodelist().encode() == "node0");
}

TEST_CASE("fluxion graph - containment deeper than the ceiling is refused, not recursed") {
    Jgf j;
    int at = j.add(-1, "cluster");
    for (int i = 0; i < 1200; ++i)
        at = j.add(at, "rack");
    jobspec::Limits limits;
    limits.max_input_bytes = 1 << 26;
    auto r = jobspec::read_resource_set(j.text(), limits);
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics()[0].code_name() == "limit.depth");
}

TEST_CASE("fluxion match - a request may leave out the levels above it") {
    const auto r = graph(cluster(2, 2, 4).text());
    auto o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: core, count: 3}") + "]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["core"] == 3);
    CHECK(o.shared["socket"] == 1); // the socket is shared: only what the slot holds is taken
}

TEST_CASE("fluxion match - after the first match, each level is the next level of the graph") {
    const auto r = graph(cluster(2, 2, 4).text());
    // cores are under sockets, not nodes
    auto o = fit(job("{type: node, count: 1, with: [" + slot("1", "{type: core, count: 1}") + "]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("per node: a slot's core must be children of the node") != std::string::npos);
}

TEST_CASE("fluxion match - a count takes the most acceptable of what is there") {
    const auto r = graph(cluster(2, 2, 4).text());
    auto o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: core, count: {min: 2}}") + "]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["core"] == 4);
    o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: core, count: {min: 1, max: 3, operator: '+', operand: 2}}") + "]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["core"] == 3);
    o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: core, count: 5}") + "]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
}

TEST_CASE("fluxion match - pooled resources count their sizes and are taken whole") {
    const auto r = graph(cluster(1, 1, 2, 0, 4, 2).text()); // 4 memory vertices of 2 GB
    auto o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: memory, count: 5}") + "]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["memory"] == 6); // three whole vertices
    o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: memory, count: 9}") + "]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("4 memory × 2 GB (8 GB)") != std::string::npos);
    // two slots of 3 GB each need two vertices each: 2 slots, not 8 / 3
    o = fit(job("{type: socket, count: 1, with: [" + slot("3", "{type: memory, count: 3}") + "]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("which make 2 slots (each slot's 3 GB takes 2 whole memory)") != std::string::npos);
}

TEST_CASE("fluxion match - slots are where their resources are children, counted across the graph") {
    const auto r = graph(cluster(2, 2, 4).text());
    auto o = fit(job(slot("8", "{type: core, count: 2}")), r);
    REQUIRE(o.ok);
    CHECK(o.taken["core"] == 16);
    CHECK(o.alloc.nslots == 8);
    o = fit(job(slot("9", "{type: core, count: 2}")), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("the graph makes 8 slots at the 4 vertices") != std::string::npos);
}

TEST_CASE("fluxion match - everything in a slot is exclusive, and only that") {
    const auto r = graph(cluster(2, 1, 4, 1).text());
    auto o = fit(job("{type: node, count: 1, with: [" + slot("1", "{type: socket, count: 1, with: [{type: core, count: 2}]}") + "]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["socket"] == 1);
    CHECK(o.taken["core"] == 2);
    CHECK(o.shared["node"] == 1);
    CHECK(o.taken.count("gpu") == 0);
    o = fit(job("{type: node, count: 1, with: [" + slot("1", "{type: socket, count: 1, exclusive: false, with: [{type: core, count: 2}]}") + "]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.pointer == "/resources/0/with/0/with/0/type");
}

TEST_CASE("fluxion match - exclusive: true takes the whole vertex and all beneath it") {
    const auto r = graph(cluster(2, 1, 4, 1).text());
    auto o = fit(job("{type: node, count: 1, exclusive: true, with: [" + slot("1", "{type: core, count: 1}") + "]}"), r);
    // cores are under the socket, so the slot cannot be at the node
    CHECK(o.code == "jobspec.unsatisfiable");
    o = fit(job("{type: node, count: 1, exclusive: true, with: [{type: socket, count: 1}]}"), r);
    REQUIRE(o.ok);
    CHECK(o.taken["node"] == 1);
    CHECK(o.taken["core"] == 4);
    CHECK(o.taken["gpu"] == 1);
}

TEST_CASE("fluxion match - a request with no slot and nothing exclusive takes nothing") {
    const auto r = graph(cluster(2, 1, 4).text());
    auto o = fit("version: 9999\nresources: [{type: node, count: 1, with: [{type: socket, count: 1}]}]\n"
                 "tasks: [{command: [app], slot: task, count: {per_slot: 1}}]\nattributes: {}\n", r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("no slot and nothing exclusive") != std::string::npos);
}

TEST_CASE("fluxion match - or-slots mix their shapes, xor_slots are tried in order") {
    const auto r = graph(cluster(1, 2, 8, 1).text()); // 2 sockets: 8 cores and 1 gpu each
    // per socket: one (4 cores + gpu) and one (4 cores): two slots; 4 in all
    auto o = fit(job("{type: socket, count: 2, with: [" +
                     slot("2", "{type: core, count: 4}, {type: gpu, count: 1}") +
                     ", {type: slot, count: 2, label: b, with: [{type: core, count: 4}]}]}"),
                 r);
    REQUIRE(o.ok);
    CHECK(o.alloc.nslots == 4);
    CHECK(o.taken["core"] == 16);
    CHECK(o.taken["gpu"] == 2);
    // 4 cores and 2 gpus, slots of 2 cores or of a core and a gpu: the first instance takes
    // 2 cores; the second could too, but then the third would not fit, so it takes a core
    // and a gpu, as does the third: each instance takes what its own choice holds.
    const auto small = graph(cluster(1, 1, 4, 2).text());
    o = fit(job("{type: socket, count: 1, with: [" +
                slot("3", "{type: core, count: 2}") +
                ", {type: slot, count: 3, label: b, with: [{type: core, count: 1}, "
                "{type: gpu, count: 1}]}]}"),
            small);
    REQUIRE(o.ok);
    CHECK(o.alloc.nslots == 3);
    CHECK(o.taken["core"] == 4);
    CHECK(o.taken["gpu"] == 2);
    // xor: the first choice (2 gpus a socket) does not fit, the second does
    o = fit(job("{type: socket, count: 1, with: [{type: xor_slot, count: 1, label: a, with: [{type: gpu, count: 2}]},"
                " {type: xor_slot, count: 1, label: b, with: [{type: core, count: 6}]}]}"),
            r);
    REQUIRE(o.ok);
    CHECK(o.taken["core"] == 6);
    CHECK(o.taken.count("gpu") == 0);
}

TEST_CASE("fluxion match - constraints choose nodes by property, name and rank") {
    Jgf j;
    const int root = j.add(-1, "cluster");
    for (int i = 0; i < 4; ++i) {
        const int node = j.add(root, "node",
                               fmt::format(R"("rank":{},"name":"node{}"{})", i, i,
                                           i % 2 == 1 ? R"(,"properties":{"ssd":""})" : ""));
        j.add(node, "core");
    }
    const auto r = graph(j.text());
    const auto two = slot("2", "{type: node, count: 1, with: [{type: core, count: 1}]}");
    auto o = fit(job(two, "constraints: {properties: [ssd]}"), r);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank[1,3]/core0");
    o = fit(job(two, "constraints: {properties: ['^ssd']}"), r);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank[0,2]/core0");
    o = fit(job(two, "constraints: {hostlist: ['node[2-3]']}"), r);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank[2-3]/core0");
    // `or` is the union of its constraints: node0 or node1 is two nodes, and three of
    // them are asked of none (not every node).
    o = fit(job(two, "constraints: {or: [{hostlist: [node0]}, {hostlist: [node1]}]}"), r);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank[0-1]/core0");
    o = fit(job(slot("3", "{type: node, count: 1, with: [{type: core, count: 1}]}"),
                "constraints: {or: [{hostlist: [node0]}, {hostlist: [node1]}]}"),
            r);
    CHECK(o.code == "jobspec.unsatisfiable");
    o = fit(job(two, "constraints: {and: [{ranks: ['0-2']}, {properties: [ssd]}]}"), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("node2 does not meet the constraints") == std::string::npos);
    // A queue's property on R's ranks (RFC 33 membership) counts as the node's.
    ResourceSet with_queue = r;
    with_queue.set_property("debug", jobspec::IdSet::range(3, 3));
    o = fit(job(slot("1", "{type: node, count: 1, with: [{type: core, count: 1}]}"),
                "constraints: {properties: [debug]}"),
            with_queue);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank3/core0");
}

TEST_CASE("fluxion match - down vertices are not free; more nodes than are up is unsatisfiable") {
    auto text = cluster(3, 1, 2).text();
    const auto at = text.find(R"("name":"node2")");
    text.insert(at, R"("status":1,)");
    const auto r = graph(text);
    const auto node = "{type: node, count: 1, with: [{type: socket, count: 1, with: [{type: core, count: 2}]}]}";
    auto o = fit(job(slot("2", node)), r);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank[0-1]/core[0-1]");
    o = fit(job(slot("3", node)), r);
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("asks 3 nodes in all, and 2 of the graph's 3 nodes are up") != std::string::npos);
    // The only node with a gpu is down: it fits the graph, not what is up.
    Jgf j;
    const int root = j.add(-1, "cluster");
    for (int i = 0; i < 3; ++i) {
        const int n = j.add(root, "node", fmt::format(R"("rank":{}{})", i, i == 0 ? R"(,"status":1)" : ""));
        j.add(n, "core");
        if (i == 0)
            j.add(n, "gpu");
    }
    o = fit(job(slot("1", "{type: node, count: 1, with: [{type: gpu, count: 1}]}")), graph(j.text()));
    CHECK(o.code == "match.pending");
    CHECK(o.message.find("node0 is down") != std::string::npos);
}

TEST_CASE("fluxion match - with what is free, a busy graph is pending") {
    const auto r = graph(cluster(2, 1, 4).text());
    // What is free: the graph without node0's cores (Fluxion's graph, matched by path).
    auto jgf = boost::json::parse(cluster(2, 1, 4).text());
    auto& nodes = jgf.at("graph").at("nodes").as_array();
    auto& edges = jgf.at("graph").at("edges").as_array();
    std::set<std::string> gone;
    for (const auto& n : nodes) {
        const auto path = n.at("metadata").at("paths").at("containment").as_string();
        if (path.starts_with("/cluster0/node0/socket0/core"))
            gone.insert(std::string(n.at("id").as_string()));
    }
    boost::json::array kept_nodes, kept_edges;
    for (const auto& n : nodes)
        if (!gone.contains(std::string(n.at("id").as_string())))
            kept_nodes.push_back(n);
    for (const auto& e : edges)
        if (!gone.contains(std::string(e.at("target").as_string())))
            kept_edges.push_back(e);
    nodes = std::move(kept_nodes);
    edges = std::move(kept_edges);
    jobspec::MatchOptions options;
    options.free = graph(boost::json::serialize(jgf));
    const auto node = "{type: node, count: 1, with: [{type: socket, count: 1, with: [{type: core, count: 4}]}]}";
    auto o = fit(job(slot("1", node)), r, options);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank1/core[0-3]");
    o = fit(job(slot("2", node)), r, options);
    CHECK(o.code == "match.pending");
    o = fit(job(slot("3", node)), r, options);
    CHECK(o.code == "jobspec.unsatisfiable");
    // What is free as R (ranks, cores and gpus), as a running instance's R less what is
    // allocated: the graph R carries is the same, what R says is free decides.
    const auto first_alloc = fit(job(slot("1", "{type: node, count: 1, with: [{type: socket, count: 1, with: [{type: core, count: 1}]}]}")), r);
    REQUIRE(first_alloc.ok);
    options.free = r.without(first_alloc.alloc);
    CHECK(options.free->summary() == "rank0/core[1-3] rank1/core[0-3]");
    o = fit(job(slot("1", node)), r, options);
    REQUIRE(o.ok);
    CHECK(o.alloc.summary() == "rank1/core[0-3]");
    o = fit(job(slot("2", node)), r, options);
    CHECK(o.code == "match.pending");
    CHECK(o.message.find("core0 is not free") != std::string::npos);
}

TEST_CASE("fluxion match - the rabbit case names the level and the sum") {
    // flux-sched issue 1544: 16 nodes of a chassis with 1501 GiB each of its 36 SSDs of 453 GiB
    Jgf j;
    const int root = j.add(-1, "cluster");
    for (int c = 0; c < 2; ++c) {
        const int chassis = j.add(root, "chassis");
        for (int s = 0; s < 36; ++s)
            j.add(chassis, "ssd", R"("size":453,"unit":"GiB")");
        for (int n = 0; n < 16; ++n)
            j.add(j.add(chassis, "node", fmt::format(R"("rank":{})", c * 16 + n)), "core");
    }
    auto o = fit(job("{type: chassis, count: 1, with: [" +
                     slot("16", "{type: node, count: 1}, {type: ssd, count: 1501}") + "]}"),
                 graph(j.text()));
    CHECK(o.code == "jobspec.unsatisfiable");
    CHECK(o.message.find("per chassis: 16 nodes and 16 × 1501 GiB of ssd (24016 GiB) asked, 16 "
                         "nodes and 36 ssd × 453 GiB (16308 GiB) there, which make 9 slots") !=
          std::string::npos);
    CHECK(o.pointer == "/resources/0");
}

TEST_CASE("fluxion match - what Fluxion's traverser cannot read") {
    const auto r = graph(cluster(1, 1, 2).text());
    auto o = fit(job(slot("1", "{type: widget, count: 1}")), r);
    CHECK(o.code == "match.unsupported");
    CHECK(o.message.find("Fluxion knows no resource type 'widget'") != std::string::npos);
    o = fit(job("{type: socket, count: 1, with: [{type: core, count: 1}, " + slot("1", "{type: core, count: 1}") + "]}"), r);
    CHECK(o.code == "match.unsupported");
}

TEST_CASE("fluxion match - two requests of one type at one level are refused") {
    const auto r = graph(cluster(1, 1, 2).text());
    auto o = fit(job("{type: socket, count: 1, with: [" + slot("1", "{type: core, count: 1}, {type: core, count: 1}") + "]}"), r);
    CHECK(o.code == "match.unsupported");
    CHECK(o.message.find("two 'core' at one level") != std::string::npos);
}

TEST_CASE("fluxion match - xor_slots that stand for more than 1000 lists are refused") {
    const auto r = graph(cluster(1, 1, 2).text());
    // eleven sockets side by side, each two choices: 2^11 lists
    std::string xors;
    for (int i = 0; i < 11; ++i)
        xors += std::string(i ? ", " : "") + "{type: socket, count: 1, with: [" +
                "{type: xor_slot, count: 1, label: a, with: [{type: core, count: 1}]}, " +
                "{type: xor_slot, count: 1, label: b, with: [{type: core, count: 2}]}]}";
    auto o = fit(job(xors), r);
    CHECK(o.code == "limit.expansion");
}

TEST_CASE("fluxion match - xor_slots that stand for exactly 1000 lists are tried") {
    const auto r = graph(cluster(1, 1, 2).text());
    // three sockets of two choices and three of five: 2^3 * 5^3 = 1000 lists
    std::string xors;
    for (int i = 0; i < 6; ++i) {
        xors += std::string(i ? ", " : "") + "{type: socket, count: 1, with: [";
        for (int c = 0; c < (i < 3 ? 2 : 5); ++c)
            xors += std::string(c ? ", " : "") + "{type: xor_slot, count: 1, label: x" +
                    std::to_string(c) + ", with: [{type: core, count: " + std::to_string(c + 1) +
                    "}]}";
        xors += "]}";
    }
    auto o = fit(job(xors), r);
    CHECK(o.code != "limit.expansion");
    CHECK(o.code != "");
}
