// Taking an allocation from a Fluxion graph once the search has found it fits, and
// writing it as R.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/resource_set_model.hpp>

#include "match/graph_search.hpp"

namespace jobspec::match::graph {

/// The allocation being taken: vertices taken, exclusively, and the slots made. Each
/// vertex is taken once, whatever asks for it again.
class Taker {
public:
    explicit Taker(Search& s) : s_(s) {}

    /// Takes u for req (exclusively when asked, or when req says exclusive: true, then
    /// all beneath it), then what req's own list asks of u's children.
    void take(Index u, const ResourceVertex& req, bool exclusive);

    /// Takes k instances of `slots` at u: for or-slots, each instance the first
    /// alternative after which the rest still fit (Fluxion's order).
    void take_slots(Index u, const List& slots, std::uint64_t k);

    /// Takes u's free children that can hold c until they hold n.
    void pick(Index u, const ResourceVertex& c, std::uint64_t n, bool exclusive);

    /// Marks u and all beneath it taken.
    void whole(Index u);

    /// The vertices taken, each once.
    const std::vector<Index>& taken() const { return taken_; }
    std::uint64_t nslots() const { return nslots_; }

private:
    void mark(Index u);

    Search& s_;
    std::vector<Index> taken_;
    std::unordered_set<Index> marked_;
    std::unordered_set<Index> used_;
    std::uint64_t nslots_ = 0;
};

/// The allocation as R: the vertices taken (exclusive) and those above them (shared), in
/// the graph's order, with the graph's execution ranks.
ResourceSet allocation(const FluxionGraph& g, const std::vector<Index>& taken,
                       std::uint64_t nslots);

} // namespace jobspec::match::graph
