// Why a request does not fit a Fluxion graph, level by level, in the graph's own units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/jobspec_model.hpp>

#include "match/graph_search.hpp"

namespace jobspec::match::graph {

/// How the graph measures each type (FluxionGraph::types), for messages.
struct Measures {
    const FluxionGraph& g;

    /// Whether the type is pooled (memory, storage: one vertex holds an amount).
    bool pooled(std::string_view type) const;
    /// " GB", or "" for a type without a unit.
    std::string unit(std::string_view type) const;
    /// "4 cores", "1501 GiB of ssd".
    std::string amount(std::string_view type, std::uint64_t n) const;
};

/// The explanation of a failure, level by level, from what the search `s` found.
class Explainer {
public:
    Explainer(Search& s, const Measures& m) : s_(s), m_(m) {}

    /// What each of req's instances asks, for messages: "1 node and 1501 GiB of ssd".
    std::string asks(const ResourceList& with);

    /// Why u (of req's type) cannot hold what req asks; "" when it can. It goes down
    /// through the first child that cannot, at most Limits::depth_ceiling levels.
    std::string why(Index u, const ResourceVertex& req, std::size_t depth = 0);

    /// "36 ssd × 453 GiB (16308 GiB)", "16 nodes", "2 memory, 4 GB in all".
    std::string have(const std::string& type, std::uint64_t n, std::uint64_t total) const;

    /// Why u makes fewer of `slots` than asked: what is asked, what u has and how many
    /// slots that makes, then why a child short of it cannot hold its part.
    std::string why_slots(Index u, const List& slots, std::size_t depth);

private:
    Search& s_;
    const Measures& m_;
};

} // namespace jobspec::match::graph
