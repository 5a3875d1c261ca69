// allocate against an independent checker: random requests on random small R. The
// checker reads the request its own way and searches every choice of ranks, so it says
// whether a placement exists; every allocation must be one, inside R, on ranks that
// satisfy the constraint, and every "unsatisfiable" must be one the search confirms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/feasibility.hpp>
#include <jobspec/resource_set.hpp>

#include "model/codecs.hpp"

namespace {

using jobspec::IdSet;
using jobspec::ResourceSet;

/// One rank as the checker sees it.
struct Target {
    std::uint64_t rank = 0;
    std::uint64_t cores = 0;
    std::uint64_t gpus = 0;
    bool whole = true;
    bool allowed = true;
};

/// The request as the checker reads it: node requests and node-less slot requests.
struct NodeRequest {
    std::vector<std::uint64_t> totals; // acceptable numbers of nodes in all
    std::uint64_t cores = 0, gpus = 0;
    bool exclusive = false;
};
struct SlotRequest {
    std::uint64_t least = 0; // instances in all, at least
    std::uint64_t cores = 0, gpus = 0;
};
struct Reading {
    std::vector<NodeRequest> nodes;
    std::vector<SlotRequest> slots;
};

std::vector<std::uint64_t> values(const jobspec::Count& c, std::uint64_t most) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t n = 1; n <= most; ++n)
        if (c.greatest_at_most(n) == n)
            out.push_back(n);
    return out;
}

void demand(const jobspec::ResourceList& list, std::uint64_t n, std::uint64_t& cores,
            std::uint64_t& gpus) {
    for (const auto& v : list) {
        const std::uint64_t k = n * v.count.least();
        if (v.type == "core")
            cores += k;
        else if (v.type == "gpu")
            gpus += k;
        else
            demand(v.with, k, cores, gpus);
    }
}

bool has_node(const jobspec::ResourceList& list) {
    return std::any_of(list.begin(), list.end(),
                       [](const auto& v) { return v.type == "node" || has_node(v.with); });
}

void read(const jobspec::ResourceList& list, std::uint64_t mult, bool in_slot, Reading& out) {
    for (const auto& v : list) {
        if (v.type == "node") {
            NodeRequest r;
            for (auto k : values(v.count, 16))
                r.totals.push_back(k * mult);
            demand(v.with, 1, r.cores, r.gpus);
            const auto* x = v.find("exclusive");
            r.exclusive = x != nullptr ? x->value.as_bool() : in_slot;
            out.nodes.push_back(r);
        } else if (has_node(v.with)) {
            read(v.with, mult * v.count.least(), true, out);
        } else {
            SlotRequest s;
            s.least = mult * v.count.least();
            if (v.type == "slot")
                demand(v.with, 1, s.cores, s.gpus);
            else
                (v.type == "core" ? s.cores : s.gpus) = 1;
            out.slots.push_back(s);
        }
    }
}

/// Whether some choice of ranks holds the request at its least counts (or, with
/// `totals_of`, at exactly these node totals).
bool placeable(const Reading& req, std::vector<Target> targets,
               const std::vector<std::uint64_t>& totals) {
    // Every node instance in turn, on any rank not yet used by a node, then the slots.
    std::vector<std::pair<std::size_t, std::uint64_t>> instances; // request, unused
    for (std::size_t i = 0; i < req.nodes.size(); ++i)
        for (std::uint64_t k = 0; k < totals[i]; ++k)
            instances.push_back({i, 0});
    std::vector<bool> used(targets.size(), false);
    std::function<bool(std::size_t, std::size_t)> go = [&](std::size_t at,
                                                           std::size_t from) -> bool {
        if (at == instances.size()) {
            auto left = targets;
            for (const auto& s : req.slots) {
                std::uint64_t need = s.least;
                for (auto& t : left) {
                    if (!t.allowed)
                        continue;
                    while (need > 0 && t.cores >= s.cores && t.gpus >= s.gpus &&
                           (s.cores > 0 || s.gpus > 0)) {
                        t.cores -= s.cores;
                        t.gpus -= s.gpus;
                        --need;
                    }
                }
                if (need > 0)
                    return false;
            }
            return true;
        }
        const NodeRequest& r = req.nodes[instances[at].first];
        // Instances of one request are interchangeable: take ranks in increasing order.
        const bool same = at > 0 && instances[at - 1].first == instances[at].first;
        for (std::size_t i = same ? from : 0; i < targets.size(); ++i) {
            Target& t = targets[i];
            if (used[i] || !t.allowed || t.cores < r.cores || t.gpus < r.gpus ||
                (r.exclusive && !t.whole))
                continue;
            const Target saved = t;
            used[i] = true;
            if (r.exclusive)
                t.cores = t.gpus = 0;
            else {
                t.cores -= r.cores;
                t.gpus -= r.gpus;
            }
            if (go(at + 1, i + 1))
                return true;
            t = saved;
            used[i] = false;
        }
        return false;
    };
    return go(0, 0);
}

bool placeable_least(const Reading& req, const std::vector<Target>& targets) {
    std::vector<std::uint64_t> totals;
    for (const auto& n : req.nodes) {
        if (n.totals.empty())
            return false;
        totals.push_back(n.totals.front());
    }
    return placeable(req, targets, totals);
}

struct Case {
    ResourceSet r;
    std::string yaml;
};

std::string count_text(std::mt19937& g, bool choice) {
    const std::uint64_t n = 1 + g() % 3;
    if (!choice || g() % 2 == 0)
        return std::to_string(n);
    switch (g() % 3) {
    case 0:
        return fmt::format("\"{}+\"", n);
    case 1:
        return fmt::format("\"{}-{}\"", n, n + 1 + g() % 3);
    default:
        return fmt::format("\"{},{}\"", n, n + 2);
    }
}

std::string slot_text(std::mt19937& g, const std::string& label, bool choice) {
    std::string with = fmt::format("{{type: core, count: {}}}", count_text(g, false));
    if (g() % 3 == 0)
        with += fmt::format(", {{type: gpu, count: {}}}", 1 + g() % 2);
    return fmt::format("{{type: slot, count: {}, label: {}, with: [{}]}}", count_text(g, choice),
                       label, with);
}

Case random_case(std::mt19937& g) {
    Case c;
    const std::uint64_t ranks = 1 + g() % 6;
    std::vector<std::string> hosts;
    for (std::uint64_t first = 0; first < ranks;) {
        const std::uint64_t last = std::min(ranks - 1, first + g() % 3);
        const std::uint64_t cores = 1 + g() % 6;
        const std::uint64_t gpus = g() % 3;
        c.r.add(IdSet::range(first, last), IdSet::range(0, cores - 1),
                gpus == 0 ? IdSet{} : IdSet::range(0, gpus - 1));
        first = last + 1;
    }
    REQUIRE(c.r.set_nodelist(*jobspec::model::decode_hostlist(fmt::format("n[0-{}]", ranks - 1))));
    for (std::uint64_t rank = 0; rank < ranks; ++rank)
        if (g() % 2 == 0)
            REQUIRE(c.r.set_property(g() % 2 == 0 ? "a" : "b", IdSet::range(rank, rank)));

    std::string resources;
    switch (g() % 6) {
    case 0:
    case 1: { // nodes holding slots, maybe a second node request
        const bool x = g() % 3 == 0;
        resources = fmt::format("{{type: node, count: {}{}, with: [{}]}}", count_text(g, true),
                                x ? ", exclusive: true" : "", slot_text(g, "task", false));
        if (g() % 3 == 0)
            resources += fmt::format(", {{type: node, count: {}, with: [{}]}}",
                                     count_text(g, false), slot_text(g, "other", false));
        break;
    }
    case 2: // slots alone
        resources = slot_text(g, "task", true);
        break;
    case 3: // a slot of nodes
        resources = fmt::format(
            "{{type: slot, count: {}, label: task, with: [{{type: node, count: {}{}, with: "
            "[{{type: core, count: {}}}]}}]}}",
            count_text(g, false), count_text(g, true), g() % 2 == 0 ? ", exclusive: false" : "",
            count_text(g, false));
        break;
    case 4: // nodes, and slots with no node beside them
        resources = fmt::format("{{type: node, count: {}, with: [{}]}}, {}", count_text(g, true),
                                slot_text(g, "task", false), slot_text(g, "other", true));
        break;
    default: // two kinds of slot on each node
        resources = fmt::format("{{type: node, count: {}, with: [{}, {}]}}", count_text(g, true),
                                slot_text(g, "task", false), slot_text(g, "other", false));
        break;
    }
    std::string constraint;
    switch (g() % 6) {
    case 0:
        constraint = R"(, constraints: {properties: [a]})";
        break;
    case 1:
        constraint = R"(, constraints: {not: [{properties: [b]}]})";
        break;
    case 2:
        constraint = fmt::format(
            R"(, constraints: {{or: [{{ranks: ["{}"]}}, {{properties: ["^a"]}}]}})", g() % 6);
        break;
    default:
        break;
    }
    c.yaml = fmt::format("version: 1\nresources: [{}]\ntasks: [{{command: [app], slot: task, "
                         "count: {{per_slot: 1}}}}]\nattributes: {{system: {{duration: 0{}}}}}\n",
                         resources, constraint);
    return c;
}

std::vector<Target> targets_of(const ResourceSet& r, const IdSet& allowed) {
    std::vector<Target> out;
    for (const auto& grp : r.groups())
        for (auto rank : grp.ranks)
            out.push_back(
                {rank, grp.cores.count(), grp.gpus.count(), true, allowed.contains(rank)});
    std::sort(out.begin(), out.end(),
              [](const Target& a, const Target& b) { return a.rank < b.rank; });
    return out;
}

} // namespace

TEST_CASE("match - every allocation passes the independent checker (10,000 cases)") {
    // JOBSPEC_MATCH_CASES=1000000 for a longer run, JOBSPEC_MATCH_SEED for other cases.
    const char* more = std::getenv("JOBSPEC_MATCH_CASES");
    const char* seed = std::getenv("JOBSPEC_MATCH_SEED");
    const long cases = more != nullptr ? std::max(10000L, std::atol(more)) : 10000L;
    std::mt19937 g(seed != nullptr ? static_cast<unsigned>(std::atol(seed)) : 31U);
    long allocated = 0, refused = 0;
    for (long i = 0; i < cases; ++i) {
        const Case c = random_case(g);
        const std::string summary = c.r.summary();
        CAPTURE(c.yaml);
        CAPTURE(summary);
        auto js = jobspec::read_jobspec(c.yaml);
        REQUIRE_MESSAGE(js.ok(), js.diagnostics()[0].message);
        Reading req;
        read(js.value().resources, 1, false, req);
        IdSet allowed = c.r.ranks();
        if (const auto* k = js.value().attributes.constraints())
            allowed = k->match(c.r).value();
        const bool exists = placeable_least(req, targets_of(c.r, allowed));
        auto alloc = jobspec::allocate(js.value(), c.r);
        CHECK(alloc.ok() == exists);
        if (!alloc.ok()) {
            ++refused;
            CHECK(alloc.diagnostics()[0].code == jobspec::Code::jobspec_unsatisfiable);
            continue;
        }
        ++allocated;
        const ResourceSet& a = alloc.value();
        CHECK(c.r.includes(a));
        CHECK(allowed.includes(a.ranks()));
        CHECK(a.nodelist() == c.r.filtered(a.ranks()).nodelist());
        // The allocation itself holds the request, with some acceptable node totals and
        // the exclusive nodes whole.
        std::vector<Target> mine = targets_of(a, a.ranks());
        for (auto& t : mine) {
            const ResourceSet whole = c.r.filtered(IdSet::range(t.rank, t.rank));
            t.whole = a.filtered(IdSet::range(t.rank, t.rank)).includes(whole);
        }
        bool held = false;
        std::vector<std::uint64_t> totals(req.nodes.size(), 0);
        std::function<void(std::size_t)> each = [&](std::size_t k) {
            if (held)
                return;
            if (k == req.nodes.size()) {
                held = placeable(req, mine, totals);
                return;
            }
            for (auto t : req.nodes[k].totals) {
                totals[k] = t;
                each(k + 1);
            }
        };
        each(0);
        CHECK(held);
        REQUIRE(a.nslots.has_value());
        CHECK(*a.nslots >= 1);
    }
    // The generator reaches both outcomes often.
    CHECK(allocated > cases / 4);
    CHECK(refused > cases / 10);
}
