// Placing a jobspec on Fluxion's resource graph: what Fluxion's traverser cannot read,
// then each candidate request searched (graph_search), taken (graph_take) or explained
// (graph_explain), now and ever.
#include "match/graph_fit.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "match/graph_explain.hpp"
#include "match/graph_search.hpp"
#include "match/graph_take.hpp"
#include "match/match_explanation.hpp"
#include "match/xor_candidates.hpp"

namespace jobspec::match {

namespace {

using graph::Explainer;
using graph::Index;
using graph::List;
using graph::Measures;
using graph::Search;
using graph::SearchGround;
using graph::slots_of;

/// The JSON pointer of each request vertex of a list, under `base`.
void pointers_of(const ResourceList& list, const std::string& base,
                 std::unordered_map<const ResourceVertex*, std::string>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto at = fmt::format("{}/{}", base, i);
        out.emplace(&list[i], at);
        pointers_of(list[i].with, at + "/with", out);
    }
}

/// What Fluxion's traverser cannot read: a type twice at one level, a slot beside a
/// resource of another type, `exclusive: false` in a slot (Fluxion refuses it as
/// unsatisfiable). The first found, or nothing.
std::optional<Diagnostic> unreadable(const ResourceList& list, bool in_slot,
                                     const std::unordered_map<const ResourceVertex*, std::string>&
                                         at) {
    const List slots = slots_of(list);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& v = list[i];
        auto located = [&](Code code, std::string message) {
            Diagnostic d;
            d.code = code;
            d.message = std::move(message);
            const auto it = at.find(&v);
            d.location = Location{v.type_range, it == at.end() ? "" : it->second + "/type"};
            return d;
        };
        if (!slots.empty() && !v.is_slot())
            return located(Code::match_unsupported,
                           fmt::format("a '{}' beside a slot: Fluxion's traverser reads the slot "
                                       "and not what is beside it",
                                       v.type));
        for (std::size_t j = 0; j < i; ++j)
            if (!v.is_slot() && list[j].type == v.type)
                return located(Code::match_unsupported,
                               fmt::format("two '{}' at one level: Fluxion's traverser matches "
                                           "a type once per level",
                                           v.type));
        if (in_slot && graph::explicitly(v, false))
            return located(Code::jobspec_unsatisfiable,
                           fmt::format("the '{}' in a slot says exclusive: false, and Fluxion "
                                       "takes all of a slot exclusively",
                                       v.type));
        if (auto inner = unreadable(v.with, in_slot || v.is_slot(), at))
            return inner;
    }
    return std::nullopt;
}

/// Fluxion's own resource types, which it knows whatever its graph holds.
constexpr std::array<std::string_view, 10> fluxion_types{
    "cluster", "core", "socket", "gpu", "node", "rack", "slot", "xor_slot", "ssd", "storage_node"};

/// The first request of a type Fluxion does not know (neither its own nor the graph's),
/// as match.unsupported, or nothing.
std::optional<Diagnostic> unknown_type(const ResourceList& list, const FluxionGraph& g,
                                       const std::string& base = "/resources") {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& v = list[i];
        const auto at = fmt::format("{}/{}", base, i);
        if (std::find(fluxion_types.begin(), fluxion_types.end(), v.type) ==
                fluxion_types.end() &&
            g.count(v.type) == 0) {
            Diagnostic d;
            d.code = Code::match_unsupported;
            d.message = fmt::format("Fluxion knows no resource type '{}': it is not one of its "
                                    "own and the graph has none",
                                    v.type);
            d.location = Location{v.type_range, at + "/type"};
            return d;
        }
        if (auto inner = unknown_type(v.with, g, at + "/with"))
            return inner;
    }
    return std::nullopt;
}

/// Whether a list takes anything: a slot, or a vertex that says exclusive: true.
bool takes_anything(const ResourceList& list) {
    return std::any_of(list.begin(), list.end(), [](const ResourceVertex& v) {
        return v.is_slot() || v.type == "xor_slot" || graph::explicitly(v, true) ||
               takes_anything(v.with);
    });
}

/// One candidate resource list on one view: the allocation, or why not.
Result<ResourceSet> fit(Search& s, const ResourceList& top, const Measures& m,
                        const std::unordered_map<const ResourceVertex*, std::string>& at,
                        bool take) {
    const List slots = slots_of(top);
    graph::TopFound found(top, slots);
    graph::descend(s, s.graph().root, top, slots, found);
    Explainer explain(s, m);
    auto failure = [&](const ResourceVertex& t, std::string message) {
        Diagnostics d;
        const auto it = at.find(&t);
        d.add(Code::jobspec_unsatisfiable, std::move(message),
              Location{t.range, it == at.end() ? "" : it->second});
        return Result<ResourceSet>(std::move(d));
    };
    for (const auto& t : top) {
        if (t.is_slot())
            continue;
        const auto& where = found.requests[&t].at;
        std::uint64_t total = 0, all = 0, qualified = 0;
        Index failing = FluxionVertex::none;
        for (auto u : where) {
            all += static_cast<std::uint64_t>(s.graph().vertices[u].size);
            if (s.qualifies(u, t)) {
                total += static_cast<std::uint64_t>(s.avail(u));
                ++qualified;
            } else if (failing == FluxionVertex::none) {
                failing = u;
            }
        }
        if (t.count.greatest_at_most(total))
            continue;
        std::string message =
            fmt::format("asks {}{}: the graph has {} where the request looks", m.amount(t.type, t.count.least()),
                        t.with.empty() ? "" : " with " + explain.asks(t.with) + " each",
                        explain.have(t.type, where.size(), all));
        if (!t.with.empty() && qualified < where.size())
            message += fmt::format(", {} of them hold what each asks", qualified);
        if (failing != FluxionVertex::none)
            if (auto deeper = explain.why(failing, t); !deeper.empty())
                message += "; " + deeper;
        return failure(t, std::move(message));
    }
    std::uint64_t total_slots = 0;
    for (const auto& [u, n] : found.slots_at)
        total_slots += n;
    if (!slots.empty() && !slots.back()->count.greatest_at_most(total_slots)) {
        std::string message = fmt::format(
            "asks {} of {}: the graph makes {}", counted(slots.back()->count.least(), "slot"),
            explain.asks(slots.back()->with), counted(total_slots, "slot"));
        if (found.slots_at.empty()) {
            message += ": no vertex has children of every type a slot holds";
        } else {
            message += fmt::format(" at the {} {} whose children hold a slot's types",
                                   found.slots_at.size(), found.slots_at.size() == 1 ? "vertex" : "vertices");
            Index best = found.slots_at.front().first;
            std::uint64_t most = 0;
            for (const auto& [u, n] : found.slots_at)
                if (n >= most && n < slots.back()->count.least()) {
                    best = u;
                    most = n;
                    break;
                }
            if (auto deeper = explain.why_slots(best, slots, 0); !deeper.empty())
                message += "; " + deeper;
        }
        return failure(*slots.back(), std::move(message));
    }
    if (!take)
        return ResourceSet{};
    graph::Taker taker(s);
    for (const auto& t : top) {
        if (t.is_slot())
            continue;
        std::uint64_t total = 0;
        for (auto u : found.requests[&t].at)
            if (s.qualifies(u, t))
                total += static_cast<std::uint64_t>(s.avail(u));
        const auto n = t.count.greatest_at_most(total).value_or(0);
        std::uint64_t acc = 0;
        for (auto u : found.requests[&t].at) {
            if (acc >= n)
                break;
            if (!s.qualifies(u, t))
                continue;
            acc += static_cast<std::uint64_t>(s.avail(u));
            taker.take(u, t, false);
        }
    }
    if (!slots.empty()) {
        auto left = slots.back()->count.greatest_at_most(total_slots).value_or(0);
        for (const auto& [u, n] : found.slots_at) {
            const auto k = std::min(n, left);
            if (k != 0)
                taker.take_slots(u, slots, k);
            left -= k;
        }
    }
    return graph::allocation(s.graph(), taker.taken(), taker.nslots());
}

/// The nodes a request asks in all, as Fluxion's first check counts them: each node
/// vertex's least count times the least counts above it; of or-slots, the fewest.
std::uint64_t nodes_asked(const ResourceList& list) {
    auto times = [](std::uint64_t a, std::uint64_t b) {
        return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
    };
    const List slots = slots_of(list);
    if (slots.size() > 1) {
        std::uint64_t fewest = UINT64_MAX;
        for (const auto* s : slots)
            fewest = std::min(fewest, times(s->count.least(), nodes_asked(s->with)));
        return fewest;
    }
    std::uint64_t n = 0;
    for (const auto& v : list) {
        const auto here = (v.type == "node" ? v.count.least() : 0) +
                          times(v.count.least(), nodes_asked(v.with));
        n = here > UINT64_MAX - n ? UINT64_MAX : n + here;
    }
    return n;
}

/// Fluxion's first check: a request for more nodes than are up is unsatisfiable.
Result<ResourceSet> too_many_nodes(const ResourceList& top, const FluxionGraph& g,
                                   std::size_t up) {
    Diagnostics d;
    d.add(Code::jobspec_unsatisfiable,
          fmt::format("asks {} in all, and {} of the graph's {} are up: Fluxion refuses a "
                      "request for more nodes than are up",
                      counted(nodes_asked(top), "node"), up, counted(g.count("node"), "node")),
          Location{top.front().range, "/resources"});
    return Result<ResourceSet>(std::move(d));
}

} // namespace

Result<ResourceSet> graph_fit(const Jobspec& js, const ResourceSet& r, const Ground& ground) {
    const FluxionGraph& g = *r.fluxion_graph;
    Diagnostics d;
    if (auto unknown = unknown_type(js.resources, g)) {
        d.add(std::move(*unknown));
        return Result<ResourceSet>(std::move(d));
    }
    if (!takes_anything(js.resources)) {
        d.add(Code::jobspec_unsatisfiable,
              "the request has no slot and nothing exclusive, so Fluxion takes nothing for it "
              "and never runs it",
              Location{js.resources.empty() ? SourceRange{} : js.resources.front().range,
                       "/resources"});
        return Result<ResourceSet>(std::move(d));
    }
    const auto candidates = js.dialect == Dialect::fluxion
                                ? xor_candidates(js.resources, max_xor_candidates)
                                : std::optional<std::vector<ResourceList>>{{js.resources}};
    if (!candidates)
        return Result<ResourceSet>(too_many_xor_candidates());
    for (const auto& top : *candidates) {
        std::unordered_map<const ResourceVertex*, std::string> top_at;
        pointers_of(top, "/resources", top_at);
        if (auto bad = unreadable(top, false, top_at)) {
            d.add(std::move(*bad));
            return Result<ResourceSet>(std::move(d));
        }
    }
    std::unordered_map<std::string_view, std::int64_t> free_sizes;
    const bool free_graph = ground.free != nullptr && ground.free->fluxion_graph &&
                            ground.free->fluxion_graph != r.fluxion_graph;
    if (free_graph)
        for (const auto& v : ground.free->fluxion_graph->vertices)
            free_sizes.emplace(v.containment_path(), v.size);
    const SearchGround searched{{js.attributes.constraints(), ground.also},
                                &r,
                                free_graph ? &free_sizes : nullptr,
                                ground.free,
                                ground.free != nullptr ? ground.free->ranks() : IdSet{},
                                ground.budget};
    const Measures m{g};
    const auto nodes = g.types.find("node");
    const std::size_t up = nodes == g.types.end() ? 0 : nodes->second.up;
    Search now(g, searched, true);
    std::vector<std::optional<Result<ResourceSet>>> not_now(candidates->size());
    for (std::size_t i = 0; i < candidates->size(); ++i) {
        const auto& top = (*candidates)[i];
        if (nodes_asked(top) > up)
            continue;
        std::unordered_map<const ResourceVertex*, std::string> top_at;
        pointers_of(top, "/resources", top_at);
        auto fitted = fit(now, top, m, top_at, true);
        if (fitted.ok())
            return fitted;
        not_now[i] = std::move(fitted);
    }
    // Not now: ever? With nothing down and no ground.free, ever is now.
    const bool all_up = std::all_of(g.types.begin(), g.types.end(), [](const auto& t) {
        return t.second.up == t.second.count;
    });
    Search ever(g, searched, false);
    Diagnostics why;
    for (std::size_t i = 0; i < candidates->size(); ++i) {
        const auto& top = (*candidates)[i];
        std::unordered_map<const ResourceVertex*, std::string> top_at;
        pointers_of(top, "/resources", top_at);
        auto fitted = nodes_asked(top) > up            ? too_many_nodes(top, g, up)
                      : all_up && ground.free == nullptr ? std::move(*not_now[i])
                                                         : fit(ever, top, m, top_at, false);
        if (fitted.ok()) {
            auto reason = fit(now, top, m, top_at, false);
            for (Diagnostic e : reason.diagnostics()) {
                e.code = Code::match_pending;
                e.message = "it fits the graph, not what is up and free now: " + e.message;
                d.add(std::move(e));
            }
            return Result<ResourceSet>(std::move(d));
        }
        for (Diagnostic e : fitted.diagnostics()) {
            if (candidates->size() > 1)
                e.message = fmt::format("xor_slot choice {} of {}: {}", i + 1, candidates->size(),
                                        e.message);
            why.add(std::move(e));
        }
    }
    return Result<ResourceSet>(std::move(why));
}

} // namespace jobspec::match
