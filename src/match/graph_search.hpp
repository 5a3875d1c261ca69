// Fluxion's search over one view of a resource graph: what each vertex holds for a
// request, worked out as the search reaches it, and where the top-level request is found.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <jobspec/constraint_model.hpp>
#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>

#include "match/step_budget.hpp"

namespace jobspec::match::graph {

/// A vertex of the graph, by its place in FluxionGraph::vertices.
using Index = std::uint32_t;
/// Request vertices: a list's slots, or-slots when more than one.
using List = std::vector<const ResourceVertex*>;

/// Whether v says `exclusive: value`.
bool explicitly(const ResourceVertex& v, bool value);

/// A list's slots (or-slots when more than one).
List slots_of(const ResourceList& list);

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

/// Fluxion's search over one view of the graph: everything that meets the constraints
/// (can it ever run?), or of it what is up and free (can it run now?). What a vertex holds
/// is worked out as the search reaches it, and remembered. Each vertex looked at spends a
/// step of the ground's budget.
class Search {
public:
    Search(const FluxionGraph& g, const SearchGround& ground, bool now);

    /// Whether vertex v is of the request's type.
    bool is(Index v, const ResourceVertex& req);

    const FluxionGraph& graph() const { return g_; }

    /// How much u holds in this view (0: nothing).
    std::int64_t avail(Index u) { return unusable(u) == Unusable::no ? free_size(u) : 0; }

    /// Why u holds nothing in this view, or Unusable::no.
    Unusable unusable(Index u);

    /// Whether u (of req's type) can hold what req asks of it.
    bool qualifies(Index u, const ResourceVertex& req);

    /// Whether u's children hold `with` (a slot list, or resources each counted).
    bool with_fits(Index u, const ResourceList& with);

    /// How much of c's type u's children that can hold what c asks have.
    std::uint64_t qualified_sum(Index u, const ResourceVertex& c);

    /// How many of u's children of c's type can hold what c asks.
    std::uint64_t qualified_count(Index u, const ResourceVertex& c);

    /// Whether a slot (one of or-slots) can be at u: u has children of each of its types.
    bool slot_matches(Index u, const List& slots);

    /// What one slot takes of e at u: the most acceptable of what is there (0: none).
    std::uint64_t share(Index u, const ResourceVertex& e);

    /// How many of e's shares u's children make, whole vertices each.
    std::uint64_t shares(Index u, const ResourceVertex& e, std::uint64_t per);

    /// How many slots u makes: for one slot, the fewest shares of its resources; for
    /// or-slots, the most instances any mix of them makes (Fluxion's choice).
    std::uint64_t formable(Index u, const List& slots);

    /// Or-slots at a vertex: each type's amount (qualified as the alternative asking
    /// most of it would have it), and the best counts found so far.
    struct OrCounts {
        std::vector<std::string> types;
        std::vector<std::uint64_t> have;
        std::map<std::vector<std::uint64_t>, std::uint64_t> memo;
    };

    /// The or-slots' types and their amounts at u, with nothing found yet.
    OrCounts or_counts(Index u, const List& slots);

    /// What one instance of slot s takes from `have` (amounts of `types`): what is left,
    /// or nothing when s does not fit. `took`, when given, gets each element's amount.
    static std::optional<std::vector<std::uint64_t>>
    or_take(const ResourceVertex& s, const std::vector<std::string>& types,
            const std::vector<std::uint64_t>& have, std::vector<std::uint64_t>* took = nullptr);

    /// The most or-slot instances `have` makes (Fluxion's select_or_config).
    static std::uint64_t or_best(const List& slots, OrCounts& counts,
                                 const std::vector<std::uint64_t>& have);

    /// The most or-slot mixes remembered per vertex: jobspec's bound on the search (past it,
    /// fewer instances may be found than exist).
    static constexpr std::size_t max_or_states = 100000;

private:
    /// u's size in this view: all of it, or with what is free, what of it is free: its
    /// node's rank and, for a core or GPU, its id free in R, and its path in the free
    /// graph when there is one.
    std::int64_t free_size(Index u) const;

    /// Whether a node or storage_node meets the constraints (its own properties, and R's
    /// for its rank), worked out once.
    bool meets(Index u);

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

    /// Nothing found yet of `top` (its `slots`, from slots_of).
    TopFound(const ResourceList& top, const List& slots);

    /// Whether every request holds the most it can take.
    bool done() const;
};

/// Goes down from u until each of `top`'s requests or its slots are found, adding them to
/// `found`.
void descend(Search& s, Index u, const ResourceList& top, const List& slots, TopFound& found);

} // namespace jobspec::match::graph
