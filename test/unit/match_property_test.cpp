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
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/match.hpp>
#include <jobspec/resource_set.hpp>

#include "model/decoders.hpp"

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

/// Cores and gpus one node or one slot instance may use.
struct Use {
    std::uint64_t cores = 0, gpus = 0;
    bool operator<(const Use& o) const {
        return cores != o.cores ? cores < o.cores : gpus < o.gpus;
    }
};
using Uses = std::vector<Use>; // every way, each once

/// The request as the checker reads it: node requests and node-less slot requests.
struct NodeRequest {
    std::vector<std::uint64_t> totals; // acceptable numbers of nodes in all
    Uses uses;                         // what one node may use, any one of them
    bool exclusive = false;
};
struct SlotRequest {
    std::uint64_t least = 0; // instances in all, at least
    Uses uses;               // what one instance may use
};
struct Reading {
    std::vector<NodeRequest> nodes;
    std::vector<SlotRequest> slots;
    bool possible = true; // false when Fluxion's or-slots cannot have their count
};

std::vector<std::uint64_t> values(const jobspec::Count& c, std::uint64_t most) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t n = 1; n <= most; ++n)
        if (c.greatest_at_most(n) == n)
            out.push_back(n);
    return out;
}

Uses sums(const Uses& a, const Uses& b) {
    std::set<Use> out;
    for (const auto& x : a)
        for (const auto& y : b)
            out.insert({x.cores + y.cores, x.gpus + y.gpus});
    return {out.begin(), out.end()};
}

Uses repeat(const Uses& a, std::uint64_t n) {
    Uses out{{}};
    for (std::uint64_t i = 0; i < n; ++i)
        out = sums(out, a);
    return out;
}

/// Fluxion reads slots side by side as alternatives (its or-slots).
bool alternatives(const jobspec::ResourceList& list, bool fluxion) {
    return fluxion && std::count_if(list.begin(), list.end(),
                                    [](const auto& v) { return v.type == "slot"; }) > 1;
}

/// The instances of the or-slots: the last one's count, never less than any one's.
std::uint64_t or_count(const jobspec::ResourceList& list, Reading& out) {
    const std::uint64_t n = list.back().count.least();
    for (const auto& v : list)
        if (v.count.least() > n)
            out.possible = false;
    return n;
}

Uses uses_of(const jobspec::ResourceList& list, std::uint64_t n, bool fluxion, Reading& out);

Uses any_of(const jobspec::ResourceList& list, bool fluxion, Reading& out) {
    std::set<Use> any;
    for (const auto& v : list)
        for (const auto& u : uses_of(v.with, 1, fluxion, out))
            any.insert(u);
    return {any.begin(), any.end()};
}

/// What `n` copies of the list may use.
Uses uses_of(const jobspec::ResourceList& list, std::uint64_t n, bool fluxion, Reading& out) {
    if (alternatives(list, fluxion))
        return repeat(any_of(list, fluxion, out), n * or_count(list, out));
    Uses all{{}};
    for (const auto& v : list) {
        const std::uint64_t k = n * v.count.least();
        if (v.type == "core")
            all = sums(all, {{k, 0}});
        else if (v.type == "gpu")
            all = sums(all, {{0, k}});
        else
            all = sums(all, uses_of(v.with, k, fluxion, out));
    }
    return all;
}

bool has_node(const jobspec::ResourceList& list) {
    return std::any_of(list.begin(), list.end(),
                       [](const auto& v) { return v.type == "node" || has_node(v.with); });
}

void read(const jobspec::ResourceList& list, std::uint64_t mult, bool in_slot, bool fluxion,
          Reading& out) {
    if (alternatives(list, fluxion)) {
        const std::uint64_t n = mult * or_count(list, out);
        if (has_node(list[0].with)) { // each holds one node, of any of their shapes
            jobspec::ResourceList nodes;
            for (const auto& v : list)
                nodes.push_back(v.with[0]);
            NodeRequest r{{n}, any_of(nodes, fluxion, out), true};
            out.nodes.push_back(r);
        } else {
            out.slots.push_back({n, any_of(list, fluxion, out)});
        }
        return;
    }
    for (const auto& v : list) {
        if (v.type == "node") {
            NodeRequest r;
            for (auto k : values(v.count, 16))
                r.totals.push_back(k * mult);
            r.uses = uses_of(v.with, 1, fluxion, out);
            const auto* x = v.find("exclusive");
            r.exclusive = x != nullptr ? x->value.as_bool() : in_slot;
            out.nodes.push_back(r);
        } else if (has_node(v.with)) {
            read(v.with, mult * v.count.least(), true, fluxion, out);
        } else {
            SlotRequest s;
            s.least = mult * v.count.least();
            s.uses = v.type == "slot"   ? uses_of(v.with, 1, fluxion, out)
                     : v.type == "core" ? Uses{{1, 0}}
                                        : Uses{{0, 1}};
            out.slots.push_back(s);
        }
    }
}

/// Takes as many instances as the target holds (at most `need`), each any of `uses`.
std::uint64_t take_most(Target& t, const Uses& uses, std::uint64_t need) {
    std::uint64_t best = 0;
    Target after = t;
    std::function<void(Target, std::uint64_t)> go = [&](Target now, std::uint64_t taken) {
        if (taken > best) {
            best = taken;
            after = now;
        }
        if (taken == need)
            return;
        for (const auto& u : uses)
            if ((u.cores > 0 || u.gpus > 0) && now.cores >= u.cores && now.gpus >= u.gpus) {
                Target next = now;
                next.cores -= u.cores;
                next.gpus -= u.gpus;
                go(next, taken + 1);
            }
    };
    go(t, 0);
    t = after;
    return best;
}

/// Whether some choice of ranks holds the request at its least counts (or, with
/// `totals_of`, at exactly these node totals).
bool placeable(const Reading& req, std::vector<Target> targets,
               const std::vector<std::uint64_t>& totals) {
    if (!req.possible)
        return false;
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
                for (auto& t : left)
                    if (t.allowed)
                        need -= take_most(t, s.uses, need);
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
            if (used[i] || !t.allowed || (r.exclusive && !t.whole))
                continue;
            for (const auto& u : r.uses) {
                if (t.cores < u.cores || t.gpus < u.gpus)
                    continue;
                const Target saved = t;
                used[i] = true;
                if (r.exclusive)
                    t.cores = t.gpus = 0;
                else {
                    t.cores -= u.cores;
                    t.gpus -= u.gpus;
                }
                if (go(at + 1, i + 1))
                    return true;
                t = saved;
                used[i] = false;
                if (r.exclusive)
                    break; // every way takes the whole node
            }
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
    bool fluxion = false;
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

/// Fluxion's or-slots: two or three slots side by side, mostly of one count, each of
/// them holding `wrap` around its cores and gpus ("{}" for none).
std::string or_slots_text(std::mt19937& g, const std::string& wrap) {
    const std::string count = count_text(g, false);
    const int n = 2 + static_cast<int>(g() % 2);
    std::string out;
    for (int i = 0; i < n; ++i) {
        std::string with = fmt::format("{{type: core, count: {}}}", 1 + g() % 4);
        if (g() % 2 == 0)
            with += fmt::format(", {{type: gpu, count: {}}}", 1 + g() % 2);
        out += fmt::format("{}{{type: slot, count: {}, label: task, with: [{}]}}",
                           i > 0 ? ", " : "", g() % 4 == 0 ? count_text(g, false) : count,
                           fmt::format(fmt::runtime(wrap), with));
    }
    return out;
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
    c.fluxion = g() % 4 == 0;
    if (c.fluxion) {
        switch (g() % 3) {
        case 0: // or-slots on each node
            // Fluxion reads a count as an integer or a dictionary.
            resources = fmt::format(
                "{{type: node, count: {}, with: [{}]}}",
                g() % 2 == 0
                    ? count_text(g, false)
                    : fmt::format("{{min: 1, max: {}, operator: \"+\", operand: 1}}", 2 + g() % 3),
                or_slots_text(g, "{}"));
            break;
        case 1: // or-slots alone, each on one node
            resources = or_slots_text(g, "{}");
            break;
        default: // or-slots of one node each
            resources = or_slots_text(g, "{{type: node, count: 1, with: [{}]}}");
            break;
        }
    } else
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
            resources =
                fmt::format("{{type: node, count: {}, with: [{}]}}, {}", count_text(g, true),
                            slot_text(g, "task", false), slot_text(g, "other", true));
            break;
        default: // two kinds of slot on each node
            resources =
                fmt::format("{{type: node, count: {}, with: [{}, {}]}}", count_text(g, true),
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
    c.yaml = fmt::format("version: {}\nresources: [{}]\ntasks: [{{command: [app], slot: task, "
                         "count: {{per_slot: 1}}}}]\nattributes: {{system: {{duration: 0{}}}}}\n",
                         c.fluxion ? 9999 : 1, resources, constraint);
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
    long allocated = 0, refused = 0, or_allocated = 0, or_refused = 0;
    for (long i = 0; i < cases; ++i) {
        const Case c = random_case(g);
        const std::string summary = c.r.summary();
        CAPTURE(c.yaml);
        CAPTURE(summary);
        const auto dialect = c.fluxion ? jobspec::Dialect::fluxion : jobspec::Dialect::rfc;
        jobspec::ReadOptions reading;
        reading.dialect = dialect;
        auto js = jobspec::read_jobspec(c.yaml, reading);
        REQUIRE_MESSAGE(js.ok(), js.diagnostics()[0].message);
        Reading req;
        read(js.value().resources, 1, false, c.fluxion, req);
        IdSet allowed = c.r.ranks();
        if (const auto* k = js.value().attributes.constraints())
            allowed = k->match(c.r).value();
        const bool exists = placeable_least(req, targets_of(c.r, allowed));
        auto alloc = jobspec::match_jobspec(js.value(), c.r);
        CHECK(alloc.ok() == exists);
        (alloc.ok() ? (c.fluxion ? or_allocated : allocated)
                    : (c.fluxion ? or_refused : refused))++;
        if (!alloc.ok()) {
            CHECK(alloc.diagnostics()[0].code == jobspec::Code::jobspec_unsatisfiable);
            continue;
        }
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
    CHECK(allocated > cases / 5);
    CHECK(refused > cases / 10);
    CHECK(or_allocated > cases / 20);
    CHECK(or_refused > cases / 20);
}
