// Fluxion's search over one view of a resource graph (graph_search.hpp).
#include "match/graph_search.hpp"

#include <algorithm>

#include "model/constraint_evaluation.hpp"

namespace jobspec::match::graph {

namespace {

/// One vertex as the domain of model::satisfying: what it has (its own properties, and
/// R's for its rank), its name and its rank decide each term.
template <class HasProperty>
struct OneVertex {
    using Set = bool;
    const HasProperty& has;
    std::string_view name;
    std::int64_t rank;

    static bool all() { return true; }
    static bool none() { return false; }
    bool having(std::string_view property) const { return has(property); }
    bool named(const Hostlist& hosts) const { return hosts.find(name).has_value(); }
    bool ranked(const IdSet& ids) const {
        return rank >= 0 && ids.contains(static_cast<std::uint64_t>(rank));
    }
    static bool both(bool a, bool b) { return a && b; }
    static bool either(bool a, bool b) { return a || b; }
    static bool except(bool a, bool b) { return a && !b; }
    static bool nothing(bool s) { return !s; }
    static bool everything(bool s) { return s; }
};

/// Whether R's rank `rank` has the core or GPU `id`.
bool rank_has(const ResourceSet& r, std::int64_t rank, bool gpu, std::int64_t id) {
    if (rank < 0 || id < 0)
        return false;
    for (const auto& g : r.groups())
        if (g.ranks.contains(static_cast<std::uint64_t>(rank)))
            return (gpu ? g.gpus : g.cores).contains(static_cast<std::uint64_t>(id));
    return false;
}

} // namespace

bool explicitly(const ResourceVertex& v, bool value) {
    const VertexProperty* x = v.find("exclusive");
    return x != nullptr && x->value.is_bool() && x->value.get_bool() == value;
}

List slots_of(const ResourceList& list) {
    List out;
    for (const auto& v : list)
        if (v.is_slot())
            out.push_back(&v);
    return out;
}

Search::Search(const FluxionGraph& g, const SearchGround& ground, bool now)
    : g_(g), ground_(ground), now_(now), node_(g.type_index("node")),
      storage_node_(g.type_index("storage_node")), core_(g.type_index("core")),
      gpu_(g.type_index("gpu")) {}

bool Search::is(Index v, const ResourceVertex& req) {
    auto [it, fresh] = type_of_.try_emplace(&req, 0);
    if (fresh)
        it->second = g_.type_index(req.type);
    return g_.briefs[v].type == it->second;
}

Unusable Search::unusable(Index u) {
    spend(ground_.budget);
    const auto type = g_.briefs[u].type;
    if ((ground_.constraints[0] != nullptr || ground_.constraints[1] != nullptr) &&
        (type == node_ || type == storage_node_) && !meets(u))
        return Unusable::constraint;
    if (now_ && !g_.briefs[u].up)
        return Unusable::down;
    if (now_ && ground_.free_r != nullptr && free_size(u) == 0)
        return Unusable::busy;
    return Unusable::no;
}

bool Search::qualifies(Index u, const ResourceVertex& req) {
    if (avail(u) == 0)
        return false;
    if (req.with.empty())
        return true;
    auto& memo = memo_[&req];
    if (const auto it = memo.find(u); it != memo.end())
        return it->second;
    const bool fits = with_fits(u, req.with);
    memo.emplace(u, fits);
    return fits;
}

bool Search::with_fits(Index u, const ResourceList& with) {
    const List slots = std::any_of(with.begin(), with.end(),
                                   [](const ResourceVertex& v) { return v.is_slot(); })
                           ? slots_of(with)
                           : List{};
    if (!slots.empty())
        return slot_matches(u, slots) &&
               slots.back()->count.greatest_at_most(formable(u, slots)).has_value();
    return std::all_of(with.begin(), with.end(), [&](const ResourceVertex& c) {
        return c.count.greatest_at_most(qualified_sum(u, c)).has_value();
    });
}

std::uint64_t Search::qualified_sum(Index u, const ResourceVertex& c) {
    std::uint64_t sum = 0;
    for (auto v : g_.vertices[u].children)
        if (is(v, c) && qualifies(v, c))
            sum += static_cast<std::uint64_t>(avail(v));
    return sum;
}

std::uint64_t Search::qualified_count(Index u, const ResourceVertex& c) {
    std::uint64_t n = 0;
    for (auto v : g_.vertices[u].children)
        n += is(v, c) && qualifies(v, c) ? 1 : 0;
    return n;
}

bool Search::slot_matches(Index u, const List& slots) {
    return std::any_of(slots.begin(), slots.end(), [&](const ResourceVertex* s) {
        return std::all_of(s->with.begin(), s->with.end(), [&](const ResourceVertex& e) {
            return std::any_of(g_.vertices[u].children.begin(),
                               g_.vertices[u].children.end(),
                               [&](Index v) { return is(v, e); });
        });
    });
}

std::uint64_t Search::share(Index u, const ResourceVertex& e) {
    return e.count.greatest_at_most(qualified_sum(u, e)).value_or(0);
}

std::uint64_t Search::shares(Index u, const ResourceVertex& e, std::uint64_t per) {
    if (per == 0)
        return 0;
    std::uint64_t n = 0, acc = 0;
    for (auto v : g_.vertices[u].children)
        if (is(v, e) && qualifies(v, e))
            if (acc += static_cast<std::uint64_t>(avail(v)); acc >= per) {
                ++n;
                acc = 0;
            }
    return n;
}

std::uint64_t Search::formable(Index u, const List& slots) {
    if (slots.size() == 1) {
        std::uint64_t n = UINT64_MAX;
        for (const auto& e : slots.front()->with)
            n = std::min(n, shares(u, e, share(u, e)));
        return slots.front()->with.empty() ? 0 : n;
    }
    OrCounts counts = or_counts(u, slots);
    return or_best(slots, counts, counts.have);
}

Search::OrCounts Search::or_counts(Index u, const List& slots) {
    OrCounts out;
    std::vector<const ResourceVertex*> asking;
    for (const auto* s : slots)
        for (const auto& e : s->with) {
            const auto it = std::find(out.types.begin(), out.types.end(), e.type);
            if (it == out.types.end()) {
                out.types.push_back(e.type);
                asking.push_back(&e);
            } else if (asking[it - out.types.begin()]->count.least() < e.count.least()) {
                asking[it - out.types.begin()] = &e;
            }
        }
    for (const auto* e : asking)
        out.have.push_back(qualified_sum(u, *e));
    return out;
}

std::optional<std::vector<std::uint64_t>>
Search::or_take(const ResourceVertex& s, const std::vector<std::string>& types,
                const std::vector<std::uint64_t>& have, std::vector<std::uint64_t>* took) {
    std::vector<std::uint64_t> left = have;
    for (const auto& e : s.with) {
        const auto k = static_cast<std::size_t>(
            std::find(types.begin(), types.end(), e.type) - types.begin());
        const auto n = e.count.greatest_at_most(left[k]);
        if (!n || *n == 0)
            return std::nullopt;
        left[k] -= *n;
        if (took != nullptr)
            took->push_back(*n);
    }
    return left;
}

std::uint64_t Search::or_best(const List& slots, OrCounts& counts,
                              const std::vector<std::uint64_t>& have) {
    if (const auto it = counts.memo.find(have); it != counts.memo.end())
        return it->second;
    std::uint64_t best = 0;
    if (counts.memo.size() < max_or_states)
        for (const auto* s : slots)
            if (auto left = or_take(*s, counts.types, have))
                best = std::max(best, 1 + or_best(slots, counts, *left));
    counts.memo.emplace(have, best);
    return best;
}

std::int64_t Search::free_size(Index u) const {
    if (!now_ || ground_.free_r == nullptr)
        return g_.briefs[u].size;
    const auto& v = g_.vertices[u];
    const auto rank = g_.execution_ranks[u];
    if (rank >= 0 && !ground_.free_ranks.contains(static_cast<std::uint64_t>(rank)))
        return 0;
    const auto type = g_.briefs[u].type;
    if ((type == core_ || type == gpu_) && !rank_has(*ground_.free_r, rank, type == gpu_, v.id))
        return 0;
    if (ground_.free == nullptr)
        return v.size;
    const auto it = ground_.free->find(v.containment_path());
    return it == ground_.free->end() ? 0 : std::min(it->second, v.size);
}

bool Search::meets(Index u) {
    if (const auto it = meets_.find(u); it != meets_.end())
        return it->second;
    const auto& v = g_.vertices[u];
    const std::int64_t rank = v.type == "node" ? g_.execution_ranks[u] : v.rank;
    auto has = [&](std::string_view name) {
        if (v.has_property(name))
            return true;
        const auto p = ground_.r->properties().find(name);
        return rank >= 0 && p != ground_.r->properties().end() &&
               p->second.contains(static_cast<std::uint64_t>(rank));
    };
    const OneVertex<decltype(has)> one{has, v.name, rank};
    const bool yes = std::ranges::all_of(ground_.constraints, [&](const Constraint* c) {
        return c == nullptr || model::satisfying(*c, one);
    });
    meets_.emplace(u, yes);
    return yes;
}

TopFound::TopFound(const ResourceList& top, const List& slots) {
    for (const auto& t : top)
        if (!t.is_slot())
            requests[&t].most = t.count.greatest_at_most(UINT64_MAX).value_or(0);
    if (!slots.empty())
        slots_most = slots.back()->count.greatest_at_most(UINT64_MAX).value_or(0);
}

bool TopFound::done() const {
    return slots_have >= slots_most &&
           std::all_of(requests.begin(), requests.end(),
                       [](const auto& r) { return r.second.have >= r.second.most; });
}

void descend(Search& s, Index u, const ResourceList& top, const List& slots, TopFound& found) {
    if (s.avail(u) == 0)
        return;
    if (!slots.empty() && s.slot_matches(u, slots)) {
        const auto n = s.formable(u, slots);
        found.slots_at.emplace_back(u, n);
        found.slots_have += n;
        return;
    }
    for (const auto& t : top)
        if (!t.is_slot() && t.type == s.graph().vertices[u].type) {
            auto& r = found.requests[&t];
            r.at.push_back(u);
            if (s.qualifies(u, t))
                r.have += static_cast<std::uint64_t>(s.avail(u));
            return;
        }
    for (auto c : s.graph().vertices[u].children) {
        if (found.done())
            return;
        descend(s, c, top, slots, found);
    }
}

} // namespace jobspec::match::graph
