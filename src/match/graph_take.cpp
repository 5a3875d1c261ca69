// Taking an allocation from a Fluxion graph (graph_take.hpp).
#include "match/graph_take.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <unordered_map>

#include "match/or_slot_choice.hpp"
#include "model/fluxion_graph_execution.hpp"

namespace jobspec::match::graph {

void Taker::take(Index u, const ResourceVertex& req, bool exclusive) {
    used_.insert(u);
    if (exclusive || explicitly(req, true))
        mark(u);
    if (explicitly(req, true))
        whole(u);
    const List slots = slots_of(req.with);
    if (!slots.empty()) {
        const auto k =
            slots.back()->count.greatest_at_most(s_.formable(u, slots)).value_or(0);
        take_slots(u, slots, k);
        return;
    }
    for (const auto& c : req.with)
        pick(u, c, c.count.greatest_at_most(s_.qualified_sum(u, c)).value_or(0),
             exclusive || explicitly(c, true));
}

void Taker::take_slots(Index u, const List& slots, std::uint64_t k) {
    nslots_ += k;
    if (slots.size() == 1) {
        std::vector<std::uint64_t> per;
        for (const auto& e : slots.front()->with)
            per.push_back(s_.share(u, e));
        for (std::uint64_t i = 0; i < k; ++i)
            for (std::size_t j = 0; j < per.size(); ++j)
                pick(u, slots.front()->with[j], per[j], true);
        return;
    }
    using Amounts = std::vector<std::uint64_t>;
    auto counts = s_.or_counts(u, slots);
    choose_or_slots(
        slots.size(), k, counts.have,
        [&](std::size_t i, const Amounts& have) {
            return Search::or_take(*slots[i], counts.types, have);
        },
        [&](std::uint64_t m, const Amounts& have) {
            return Search::or_best(slots, counts, have) >= m;
        },
        [](std::uint64_t, const Amounts&) { return std::optional<Amounts>(); },
        [&](std::size_t i, const Amounts& before) {
            Amounts took;
            Search::or_take(*slots[i], counts.types, before, &took);
            for (std::size_t j = 0; j < slots[i]->with.size(); ++j)
                pick(u, slots[i]->with[j], took[j], true);
        });
}

void Taker::pick(Index u, const ResourceVertex& c, std::uint64_t n, bool exclusive) {
    std::uint64_t acc = 0;
    for (auto v : s_.graph().vertices[u].children) {
        if (acc >= n)
            break;
        if (used_.contains(v) || s_.graph().vertices[v].type != c.type ||
            !s_.qualifies(v, c))
            continue;
        acc += static_cast<std::uint64_t>(s_.avail(v));
        take(v, c, exclusive);
    }
}

void Taker::whole(Index u) {
    std::vector<Index> stack{u};
    while (!stack.empty()) {
        const auto w = stack.back();
        stack.pop_back();
        mark(w);
        used_.insert(w);
        for (auto c : s_.graph().vertices[w].children)
            stack.push_back(c);
    }
}

void Taker::mark(Index u) {
    if (marked_.insert(u).second)
        taken_.push_back(u);
}

ResourceSet allocation(const FluxionGraph& g, const std::vector<Index>& taken,
                       std::uint64_t nslots) {
    std::unordered_map<Index, bool> kept; // vertex -> taken (else above one taken)
    for (auto u : taken)
        kept[u] = true;
    for (auto u : taken)
        for (auto p = g.vertices[u].parent; p != FluxionVertex::none && !kept.contains(p);
             p = g.vertices[p].parent)
            kept.emplace(p, false);
    std::vector<Index> order;
    order.reserve(kept.size());
    for (const auto& [u, mine] : kept)
        order.push_back(u);
    std::sort(order.begin(), order.end());
    auto sub = std::make_shared<FluxionGraph>();
    std::unordered_map<Index, Index> renumber;
    for (auto u : order) {
        renumber.emplace(u, static_cast<Index>(sub->vertices.size()));
        FluxionVertex v = g.vertices[u];
        v.exclusive = kept.at(u);
        v.children.clear();
        sub->vertices.push_back(std::move(v));
        sub->execution_ranks.push_back(g.execution_ranks[u]);
    }
    for (Index i = 0; i < sub->vertices.size(); ++i)
        if (auto& v = sub->vertices[i]; v.parent != FluxionVertex::none) {
            v.parent = renumber.at(v.parent);
            sub->vertices[v.parent].children.push_back(i);
        }
    sub->root = renumber.at(g.root);
    const auto ranks = std::move(sub->execution_ranks);
    sub->index();
    sub->execution_ranks = ranks; // the whole graph's numbering
    ResourceSet out = model::execution_of(*sub);
    out.nslots = static_cast<std::int64_t>(
        std::min<std::uint64_t>(nslots, std::numeric_limits<std::int64_t>::max()));
    out.scheduling = boost::json::object{{"graph", nullptr}};
    out.fluxion_graph = std::move(sub);
    return out;
}


} // namespace jobspec::match::graph
