// Why a request does not fit: one hand-written case per kind of failure, with the
// message, the code and where it points.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <jobspec/document.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_set.hpp>

#include "model/decoders.hpp"

namespace {

using jobspec::IdSet;

/// foo[0-3]: 16 cores, 2 gpus, ssd on 0-1; bar[0-3]: 32 cores.
jobspec::ResourceSet cluster() {
    jobspec::ResourceSet r;
    r.add(IdSet::range(0, 3), IdSet::range(0, 15), IdSet::range(0, 1));
    r.add(IdSet::range(4, 7), IdSet::range(0, 31), {});
    REQUIRE(r.set_nodelist(*jobspec::model::decode_hostlist("foo[0-3],bar[0-3]")));
    REQUIRE(r.set_property("ssd", IdSet::range(0, 1)));
    return r;
}

std::string job(const std::string& resources, const std::string& system = "") {
    return "version: 1\nresources: [" + resources +
           "]\ntasks: [{command: [app], slot: task, count: {per_slot: 1}}]\n"
           "attributes: {system: {duration: 0" +
           system + "}}\n";
}

/// Flux's configuration in a file of its own, for MatchOptions::config, removed after.
class ConfigOnDisk {
public:
    explicit ConfigOnDisk(const std::string& toml)
        : path_(std::filesystem::temp_directory_path() /
                ("jobspec-match-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) +
                 ".toml")) {
        std::ofstream(path_) << toml;
    }
    ~ConfigOnDisk() { std::filesystem::remove(path_); }
    ConfigOnDisk(const ConfigOnDisk&) = delete;
    ConfigOnDisk& operator=(const ConfigOnDisk&) = delete;

    /// Match options that read it, for the queue `queue` (empty: the jobspec's or default).
    jobspec::MatchOptions options(std::string queue = {}) const {
        jobspec::MatchOptions o;
        o.config = path_.string();
        o.queue = std::move(queue);
        return o;
    }

private:
    std::filesystem::path path_;
};

/// Each diagnostic as "code: message @ pointer", of matching the jobspec read alone first
/// (a queue's diagnostics are not in its text).
std::vector<std::string> why(const std::string& yaml, const jobspec::MatchOptions& options = {},
                             jobspec::ResourceSet r = cluster()) {
    auto js = jobspec::read_jobspec(yaml);
    REQUIRE_MESSAGE(js.ok(), js.diagnostics()[0].message);
    auto alloc = jobspec::match_jobspec(js.value(), r, options);
    std::vector<std::string> out;
    for (const auto& d : alloc.diagnostics())
        out.push_back(std::string(d.code_name()) + ": " + d.message + " @ " + d.location.pointer);
    if (alloc.ok())
        out.push_back("allocated " + alloc.value().summary());
    return out;
}

const std::string slot_of_cores =
    "{type: slot, count: 1, label: task, with: [{type: core, count: 1}]}";

} // namespace

TEST_CASE("explain - too few nodes at all") {
    CHECK(why(job("{type: node, count: 9, with: [" + slot_of_cores + "]}")) ==
          std::vector<std::string>{"jobspec.unsatisfiable: asks 9 nodes with 1 core each: there "
                                   "are 8 nodes @ /resources/0"});
}

TEST_CASE("explain - too few nodes with the cores, then with the gpus") {
    CHECK(why(job("{type: node, count: 2, with: [{type: slot, count: 2, label: task, with: "
                  "[{type: core, count: 20}]}]}")) ==
          std::vector<std::string>{"jobspec.unsatisfiable: asks 2 nodes with 40 cores each: of "
                                   "the 8 nodes, 0 have 40 cores @ /resources/0/with/0/with/0"});
    CHECK(why(job("{type: node, count: 5, with: [{type: slot, count: 1, label: task, with: "
                  "[{type: core, count: 2}, {type: gpu, count: 1}]}]}")) ==
          std::vector<std::string>{"jobspec.unsatisfiable: asks 5 nodes with 2 cores and 1 gpu "
                                   "each: of the 8 nodes, 4 have 1 gpu @ "
                                   "/resources/0/with/0/with/1"});
}

TEST_CASE("explain - the constraint, and which term removed which nodes") {
    CHECK(why(job("{type: node, count: 3, with: [" + slot_of_cores + "]}",
                  ", constraints: {and: [{properties: [ssd]}, {not: [{hostlist: ['foo0']}]}]}")) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 3 nodes with 1 core each: of the 8 nodes, 1 matches "
              "the constraints @ /attributes/system/constraints",
              "match.constraint: foo[2-3],bar[0-3] (6 nodes) lack property ssd @ "
              "/attributes/system/constraints/and/0",
              "match.constraint: foo0 (1 node) are excluded by not hostlist:foo0 @ "
              "/attributes/system/constraints/and/1"});
}

TEST_CASE("explain - two node requests that each fit but not together") {
    CHECK(why(job("{type: node, count: 5, with: [" + slot_of_cores +
                  "]}, {type: node, count: 4, with: [{type: slot, count: 1, label: g, with: "
                  "[{type: gpu, count: 2}]}]}")) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 4 nodes with 2 gpus each: of the 8 nodes, 4 have 2 "
              "gpus; they are too few for it and the 1 node request before it @ /resources/1"});
}

TEST_CASE("explain - slots with no node: what the nodes hold") {
    CHECK(why(job("{type: slot, count: 9, label: task, with: [{type: core, count: 1}, {type: "
                  "gpu, count: 1}]}")) ==
          std::vector<std::string>{"jobspec.unsatisfiable: asks 9 slots of 1 core and 1 gpu, "
                                   "each on one node: of the 8 nodes, 4 have 1 gpu; they hold 8 "
                                   "such slots @ /resources/0"});
}

TEST_CASE("explain - pending: fits R, not what is free now") {
    jobspec::MatchOptions options;
    jobspec::ResourceSet free;
    free.add(IdSet::range(0, 0), IdSet::range(0, 15), IdSet::range(0, 1));
    free.add(IdSet::range(1, 7), IdSet::range(0, 0), {});
    options.free = free;
    CHECK(why(job("{type: node, count: 2, exclusive: true, with: [" + slot_of_cores + "]}"),
              options) ==
          std::vector<std::string>{"match.pending: fits, but not what is free now; it asks 2 "
                                   "nodes with 1 core each, whole: of the 8 nodes with something "
                                   "free, 1 is wholly free @ /resources/0"});
    CHECK(why(job("{type: node, count: 1, exclusive: true, with: [" + slot_of_cores + "]}"),
              options) == std::vector<std::string>{"allocated rank0/core[0-15],gpu[0-1]"});
}

TEST_CASE("explain - what R cannot describe") {
    // Two sockets of 12 cores a node: placed as 24 cores, with a warning.
    CHECK(why(job("{type: node, count: 1, with: [{type: socket, count: 2, with: [{type: slot, "
                  "count: 1, label: task, with: [{type: core, count: 12}]}]}]}")) ==
          std::vector<std::string>{"match.unchecked: R version 1 does not describe a 'socket': "
                                   "what each one holds is placed as asked, but not known to be "
                                   "in one @ /resources/0/with/0/type",
                                   "allocated rank4/core[0-23]"});
    CHECK(why(job("{type: node, count: 1, with: [{type: memory, count: 2}, " + slot_of_cores +
                  "]}")) ==
          std::vector<std::string>{"match.unsupported: R version 1 describes nodes, cores and "
                                   "gpus: a 'memory' cannot be placed @ "
                                   "/resources/0/with/0/type"});
    CHECK(why(job("{type: node, count: 1, with: [{type: node, count: 1, with: [" + slot_of_cores +
                  "]}]}"))
              .front()
              .starts_with("match.unsupported: a node cannot be inside a node"));
}

TEST_CASE(
    "explain - flux-core 7676: a top-level slot of nodes in a queue that requires a property") {
    // The jobspec of flux-core issue 7676 (flux-sched 1490), in a queue whose property
    // no node has: the queue's constraint is the reason, and it says so.
    const std::string rabbit =
        job("{type: slot, count: 1, label: rabbit, with: [{type: node, count: 1, with: [{type: "
            "slot, count: 1, label: task, with: [{type: core, count: 1}]}]}]}",
            ", queue: pbatch");
    const ConfigOnDisk conf("[queues.pbatch]\nrequires = [\"pbatch\"]\n");
    const auto options = conf.options();
    CHECK(why(rabbit, options) ==
          std::vector<std::string>{
              "jobspec.unsatisfiable: asks 1 node with 1 core each, whole: of the 8 nodes, 0 "
              "match the constraints @ ",
              "match.constraint: foo[0-3],bar[0-3] (8 nodes) lack property pbatch, as queue "
              "'pbatch' requires @ "});
    // With the property on two nodes, the slot's node is one of them, whole (RFC 14: a
    // node in a task slot is exclusive).
    auto r = cluster();
    REQUIRE(r.set_property("pbatch", IdSet::range(6, 7)));
    CHECK(why(rabbit, options, r) == std::vector<std::string>{"allocated rank6/core[0-31]"});
}

TEST_CASE("queues - hosts, parents, the default, and what is refused") {
    const std::string conf = "[policy.jobspec.defaults.system]\nqueue = \"batch\"\n"
                             "[queues.batch]\nhosts = \"bar[0-3]\"\n"
                             "[queues.short]\nparent = \"batch\"\n"
                             "[queues.bad]\nhosts = \"x\"\nrequires = [\"y\"]\n";
    const auto queue = [&](std::string_view name) {
        return jobspec::read_queue({{"q.toml", conf}}, name);
    };
    auto batch = queue("");
    REQUIRE(batch.ok());
    CHECK(batch.value()->name == "batch");
    CHECK(batch.value()->membership == "+batch");
    auto short_ = queue("short");
    REQUIRE(short_.ok());
    CHECK(short_.value()->hosts->list.encode() == "bar[0-3]");
    CHECK_FALSE(short_.value()->hosts->all);
    CHECK(short_.value()->membership == "+batch");
    CHECK(queue("bad").diagnostics()[0].message == "queue 'bad' has both hosts and requires");
    CHECK(queue("nope").diagnostics()[0].message ==
          "no queue 'nope' is configured (queues: bad, batch, short)");
    CHECK_FALSE(jobspec::read_queue({{"q.toml", "[queues.a]\n"}}, "").value().has_value());
    const std::string not_hosts = "[queues.a]\nhosts = \"x[\"\n";
    CHECK(jobspec::read_queue({{"q.toml", not_hosts}}, "a").diagnostics()[0].message ==
          "queue 'a': hosts 'x[' is not a hostlist: '[' is never closed");
    // The hosts' membership property is what the job must have.
    const ConfigOnDisk on_disk(conf);
    CHECK(why(job("{type: node, count: 2, with: [" + slot_of_cores + "]}"),
              on_disk.options("short")) == std::vector<std::string>{"allocated rank[4-5]/core0"});
    const ConfigOnDisk nosuch("[queues.short]\nhosts = \"bar[0-3],nosuch\"\n");
    CHECK(why(job("{type: node, count: 2, with: [" + slot_of_cores + "]}"),
              nosuch.options("short")) ==
          std::vector<std::string>{"match.queue: queue 'short': hosts 'bar[0-3],nosuch' names "
                                   "hosts R does not have @ "});
}
