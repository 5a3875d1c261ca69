// Placing a jobspec on Fluxion's resource graph: Fluxion's search, level by level, with
// its counts, slots, or-slots and xor_slots, and the explanation when it fails.
#include "match/graph_fit.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "match/match_explanation.hpp"
#include "match/xor_candidates.hpp"
#include "model/constraint_evaluation.hpp"
#include "model/fluxion_graph_execution.hpp"

namespace jobspec::match {

namespace {

using Index = std::uint32_t;
using List = std::vector<const ResourceVertex*>;

bool explicitly(const ResourceVertex& v, bool value) {
    const VertexProperty* x = v.find("exclusive");
    return x != nullptr && x->value.is_bool() && x->value.get_bool() == value;
}

/// A list's slots (or-slots when more than one).
List slots_of(const ResourceList& list) {
    List out;
    for (const auto& v : list)
        if (v.is_slot())
            out.push_back(&v);
    return out;
}

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

/// Why a vertex holds nothing for a request.
enum class Unusable : std::uint8_t { no, constraint, down, busy };

/// What a search may take besides the graph: the constraints, R's properties,
/// and what is free (containment path -> size; null for all).
struct SearchGround {
    /// The job's constraint and its queue's, each null for none.
    std::array<const Constraint*, 2> constraints{};
    const ResourceSet* r = nullptr;
    const std::unordered_map<std::string_view, std::int64_t>* free = nullptr;
    /// What is free as R (ranks, and their cores and GPUs), or null for all.
    const ResourceSet* free_r = nullptr;
    IdSet free_ranks;
    /// What the search may spend, or null for no limit.
    StepBudget* budget = nullptr;
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

/// Fluxion's search over one view of the graph: everything that meets the constraints
/// (can it ever run?), or of it what is up and free (can it run now?). What a vertex holds
/// is worked out as the search reaches it.
class Search {
public:
    Search(const FluxionGraph& g, const SearchGround& ground, bool now)
        : g_(g), ground_(ground), now_(now), node_(g.type_index("node")),
          storage_node_(g.type_index("storage_node")), core_(g.type_index("core")),
          gpu_(g.type_index("gpu")) {}

    /// Whether vertex v is of the request's type.
    bool is(Index v, const ResourceVertex& req) {
        auto [it, fresh] = type_of_.try_emplace(&req, 0);
        if (fresh)
            it->second = g_.type_index(req.type);
        return g_.briefs[v].type == it->second;
    }

    const FluxionGraph& graph() const { return g_; }

    /// How much u holds in this view (0: nothing).
    std::int64_t avail(Index u) { return unusable(u) == Unusable::no ? free_size(u) : 0; }

    Unusable unusable(Index u) {
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

    /// Whether u (of req's type) can hold what req asks of it.
    bool qualifies(Index u, const ResourceVertex& req) {
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

    /// Whether u's children hold `with` (a slot list, or resources each counted).
    bool with_fits(Index u, const ResourceList& with) {
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

    /// How much of c's type u's children that can hold what c asks have.
    std::uint64_t qualified_sum(Index u, const ResourceVertex& c) {
        std::uint64_t sum = 0;
        for (auto v : g_.vertices[u].children)
            if (is(v, c) && qualifies(v, c))
                sum += static_cast<std::uint64_t>(avail(v));
        return sum;
    }

    /// How many of u's children of c's type can hold what c asks.
    std::uint64_t qualified_count(Index u, const ResourceVertex& c) {
        std::uint64_t n = 0;
        for (auto v : g_.vertices[u].children)
            n += is(v, c) && qualifies(v, c) ? 1 : 0;
        return n;
    }

    /// Whether a slot (one of or-slots) can be at u: u has children of each of its types.
    bool slot_matches(Index u, const List& slots) {
        return std::any_of(slots.begin(), slots.end(), [&](const ResourceVertex* s) {
            return std::all_of(s->with.begin(), s->with.end(), [&](const ResourceVertex& e) {
                return std::any_of(g_.vertices[u].children.begin(),
                                   g_.vertices[u].children.end(),
                                   [&](Index v) { return is(v, e); });
            });
        });
    }

    /// What one slot takes of e at u: the most acceptable of what is there (0: none).
    std::uint64_t share(Index u, const ResourceVertex& e) {
        return e.count.greatest_at_most(qualified_sum(u, e)).value_or(0);
    }

    /// How many of e's shares u's children make, whole vertices each.
    std::uint64_t shares(Index u, const ResourceVertex& e, std::uint64_t per) {
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

    /// How many slots u makes: for one slot, the fewest shares of its resources; for
    /// or-slots, the most instances any mix of them makes (Fluxion's choice).
    std::uint64_t formable(Index u, const List& slots) {
        if (slots.size() == 1) {
            std::uint64_t n = UINT64_MAX;
            for (const auto& e : slots.front()->with)
                n = std::min(n, shares(u, e, share(u, e)));
            return slots.front()->with.empty() ? 0 : n;
        }
        OrCounts counts = or_counts(u, slots);
        return or_best(slots, counts, counts.have);
    }

    /// Or-slots at a vertex: each type's amount (qualified as the alternative asking
    /// most of it would have it), and the best counts found so far.
    struct OrCounts {
        std::vector<std::string> types;
        std::vector<std::uint64_t> have;
        std::map<std::vector<std::uint64_t>, std::uint64_t> memo;
    };

    OrCounts or_counts(Index u, const List& slots) {
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

    /// What one instance of slot s takes from `have` (amounts of `types`): what is left,
    /// or nothing when s does not fit. `took`, when given, gets each element's amount.
    static std::optional<std::vector<std::uint64_t>>
    or_take(const ResourceVertex& s, const std::vector<std::string>& types,
            const std::vector<std::uint64_t>& have, std::vector<std::uint64_t>* took = nullptr) {
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

    /// The most or-slot instances `have` makes (Fluxion's select_or_config).
    static std::uint64_t or_best(const List& slots, OrCounts& counts,
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

    /// The most or-slot mixes remembered per vertex: jobspec's bound on the search (past it,
    /// fewer instances may be found than exist).
    static constexpr std::size_t max_or_states = 100000;

private:
    /// u's size in this view: all of it, or with what is free, what of it is free: its
    /// node's rank and, for a core or GPU, its id free in R, and its path in the free
    /// graph when there is one.
    std::int64_t free_size(Index u) const {
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

    /// Whether a node or storage_node meets the constraint (its own properties, and R's
    /// for its rank), worked out once.
    bool meets(Index u) {
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

    const FluxionGraph& g_;
    SearchGround ground_;
    bool now_;
    std::uint32_t node_, storage_node_, core_, gpu_;
    std::unordered_map<const ResourceVertex*, std::uint32_t> type_of_;
    std::unordered_map<Index, bool> meets_;
    std::unordered_map<const ResourceVertex*, std::unordered_map<Index, bool>> memo_;
};

/// Where the search stops on its way down for the top-level request: the vertices of a
/// requested type, and the vertices where the top-level slots are, with how much of each
/// request they hold so far. The search stops once each request has the most its count
/// can take (a count with no most never stops it).
struct TopFound {
    struct Request {
        std::vector<Index> at;
        std::uint64_t have = 0;
        std::uint64_t most = 0;
    };
    std::map<const ResourceVertex*, Request> requests;
    std::vector<std::pair<Index, std::uint64_t>> slots_at;
    std::uint64_t slots_have = 0;
    std::uint64_t slots_most = 0;

    TopFound(const ResourceList& top, const List& slots) {
        for (const auto& t : top)
            if (!t.is_slot())
                requests[&t].most = t.count.greatest_at_most(UINT64_MAX).value_or(0);
        if (!slots.empty())
            slots_most = slots.back()->count.greatest_at_most(UINT64_MAX).value_or(0);
    }

    bool done() const {
        return slots_have >= slots_most &&
               std::all_of(requests.begin(), requests.end(),
                           [](const auto& r) { return r.second.have >= r.second.most; });
    }
};

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

/// How the graph measures each type (FluxionGraph::types), for messages.
struct Measures {
    const FluxionGraph& g;

    bool pooled(std::string_view type) const {
        const auto it = g.types.find(type);
        return it != g.types.end() && it->second.pooled;
    }

    /// " GB", or "" for a type without a unit.
    std::string unit(std::string_view type) const {
        const auto it = g.types.find(type);
        return it == g.types.end() || it->second.unit.empty() ? "" : " " + it->second.unit;
    }

    /// "4 cores", "1501 GiB of ssd".
    std::string amount(std::string_view type, std::uint64_t n) const {
        return pooled(type) ? fmt::format("{}{} of {}", n, unit(type), type) : counted(n, type);
    }
};

/// The explanation of a failure, level by level.
class Explainer {
public:
    Explainer(Search& s, const Measures& m) : s_(s), m_(m) {}

    /// What each of req's instances asks, for messages: "1 node and 1501 GiB of ssd".
    std::string asks(const ResourceList& with) {
        std::vector<std::string> parts;
        for (const auto& c : with)
            parts.push_back(c.is_slot() ? fmt::format("{} of {}", counted(c.count.least(), "slot"),
                                                      asks(c.with))
                                        : m_.amount(c.type, c.count.least()));
        return parts.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(parts, " and "));
    }

    /// Why u (of req's type) cannot hold what req asks; "" when it can.
    std::string why(Index u, const ResourceVertex& req, std::size_t depth = 0) {
        const auto& v = s_.graph().vertices[u];
        switch (s_.unusable(u)) {
        case Unusable::constraint:
            return fmt::format("{} does not meet the constraints", v.name);
        case Unusable::down:
            return fmt::format("{} is down", v.name);
        case Unusable::busy:
            return fmt::format("{} is not free", v.name);
        case Unusable::no:
            break;
        }
        if (depth > Limits::depth_ceiling)
            return {};
        const List slots = slots_of(req.with);
        if (!slots.empty())
            return why_slots(u, slots, depth);
        for (const auto& c : req.with) {
            const auto sum = s_.qualified_sum(u, c);
            if (c.count.greatest_at_most(sum))
                continue;
            std::uint64_t n = 0, total = 0;
            Index failing = FluxionVertex::none;
            for (auto w : v.children)
                if (s_.graph().vertices[w].type == c.type) {
                    ++n;
                    total += static_cast<std::uint64_t>(s_.graph().vertices[w].size);
                    if (failing == FluxionVertex::none && !s_.qualifies(w, c))
                        failing = w;
                }
            std::string out = fmt::format("per {}: {} asked, {} has {}", v.type,
                                          m_.amount(c.type, c.count.least()), v.name,
                                          have(c.type, n, total));
            const bool pooled = m_.pooled(c.type);
            if (sum < total)
                out += pooled ? fmt::format(", {} of it can be taken", m_.amount(c.type, sum))
                              : fmt::format(", {} of which can hold what each asks",
                                            s_.qualified_count(u, c));
            if (failing != FluxionVertex::none)
                if (auto deeper = why(failing, c, depth + 1); !deeper.empty())
                    out += "; " + deeper;
            return out;
        }
        return {};
    }

    /// "36 ssd × 453 GiB (16308 GiB)", "16 nodes", "2 memory, 4 GB in all".
    std::string have(const std::string& type, std::uint64_t n, std::uint64_t total) const {
        if (!m_.pooled(type))
            return counted(n, type);
        const std::string unit = m_.unit(type);
        if (n != 0 && total % n == 0)
            return fmt::format("{} {} × {}{} ({}{})", n, type, total / n, unit, total, unit);
        return fmt::format("{} {}, {}{} in all", n, type, total, unit);
    }

    std::string why_slots(Index u, const List& slots, std::size_t depth) {
        const auto& v = s_.graph().vertices[u];
        if (!s_.slot_matches(u, slots)) {
            std::vector<std::string> types;
            for (const auto& e : slots.front()->with)
                types.push_back(e.type);
            return fmt::format("per {}: a slot's {} must be children of the {}, and {} has none "
                               "of some",
                               v.type, fmt::join(types, " and "), v.type, v.name);
        }
        const std::uint64_t k = slots.back()->count.least();
        const std::uint64_t made = s_.formable(u, slots);
        if (slots.size() > 1)
            return fmt::format("per {}: {} asked, {} makes {} of the or-slots", v.type,
                               counted(k, "slot"), v.name, made);
        std::vector<std::string> asked, there;
        const ResourceVertex* short_of = nullptr;
        std::string whole;
        for (const auto& e : slots.front()->with) {
            const auto per = e.count.least();
            std::uint64_t n = 0, total = 0;
            for (auto w : v.children)
                if (s_.graph().vertices[w].type == e.type) {
                    ++n;
                    total += static_cast<std::uint64_t>(s_.graph().vertices[w].size);
                }
            const bool pooled = m_.pooled(e.type);
            if (pooled) {
                const auto unit = m_.unit(e.type);
                asked.push_back(fmt::format("{} × {}{} of {} ({}{})", k, per, unit, e.type,
                                            k * per, unit));
                if (n != 0 && total % n == 0 && per % (total / n) != 0)
                    whole = fmt::format(" (each slot's {}{} takes {} whole {})", per, unit,
                                        (per + total / n - 1) / (total / n), e.type);
            } else {
                asked.push_back(m_.amount(e.type, k * per));
            }
            there.push_back(have(e.type, n, total));
            if (short_of == nullptr && s_.shares(u, e, s_.share(u, e)) < k)
                short_of = &e;
        }
        std::string out = fmt::format("per {}: {} asked, {} there, which make {}{}", v.type,
                                      fmt::join(asked, " and "), fmt::join(there, " and "),
                                      counted(made, "slot"), whole);
        if (short_of != nullptr)
            for (auto w : v.children)
                if (s_.graph().vertices[w].type == short_of->type && !s_.qualifies(w, *short_of)) {
                    if (auto deeper = why(w, *short_of, depth + 1); !deeper.empty())
                        out += "; " + deeper;
                    break;
                }
        return out;
    }

private:
    Search& s_;
    const Measures& m_;
};

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
        if (in_slot && explicitly(v, false))
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
        return v.is_slot() || v.type == "xor_slot" || explicitly(v, true) ||
               takes_anything(v.with);
    });
}

/// The allocation being taken: vertices taken, exclusively, and the slots made.
class Taker {
public:
    explicit Taker(Search& s) : s_(s) {}

    void take(Index u, const ResourceVertex& req, bool exclusive) {
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

    void take_slots(Index u, const List& slots, std::uint64_t k) {
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
        auto counts = s_.or_counts(u, slots);
        std::vector<std::uint64_t> have = counts.have;
        for (std::uint64_t i = 0; i < k; ++i)
            for (const auto* s : slots) {
                std::vector<std::uint64_t> took;
                auto left = Search::or_take(*s, counts.types, have, &took);
                if (!left || 1 + Search::or_best(slots, counts, *left) < k - i)
                    continue;
                for (std::size_t j = 0; j < s->with.size(); ++j)
                    pick(u, s->with[j], took[j], true);
                have = std::move(*left);
                break;
            }
    }

    /// Takes u's free children that can hold c until they hold n.
    void pick(Index u, const ResourceVertex& c, std::uint64_t n, bool exclusive) {
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

    /// Marks u and all beneath it taken.
    void whole(Index u) {
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

    /// The vertices taken, each once.
    const std::vector<Index>& taken() const { return taken_; }
    std::uint64_t nslots() const { return nslots_; }

private:
    Search& s_;
    void mark(Index u) {
        if (marked_.insert(u).second)
            taken_.push_back(u);
    }

    std::vector<Index> taken_;
    std::unordered_set<Index> marked_;
    std::unordered_set<Index> used_;
    std::uint64_t nslots_ = 0;
};

/// The allocation as R: the vertices taken (exclusive) and those above them (shared), in
/// the graph's order, with the graph's execution ranks.
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

/// One candidate resource list on one view: the allocation, or why not.
Result<ResourceSet> fit(Search& s, const ResourceList& top, const Measures& m,
                        const std::unordered_map<const ResourceVertex*, std::string>& at,
                        bool take) {
    const List slots = slots_of(top);
    TopFound found(top, slots);
    descend(s, s.graph().root, top, slots, found);
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
    Taker taker(s);
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
    return allocation(s.graph(), taker.taken(), taker.nslots());
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
