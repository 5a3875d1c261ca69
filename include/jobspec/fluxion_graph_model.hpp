// FluxionGraph: Fluxion's resource graph (JGF), as R's scheduling key and resource-query's
// graph files hold it.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <jobspec/api.hpp>

namespace jobspec {

/// One vertex of Fluxion's resource graph: a resource of some type with Fluxion's
/// metadata, and its place in the containment tree.
struct FluxionVertex {
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

    /// The JGF vertex id (unique in the graph).
    std::string key;
    std::string type;
    std::string basename;
    /// The name (a node's is its host name).
    std::string name;
    /// The logical id among vertices of its type (a core's number on its node).
    std::int64_t id = 0;
    std::int64_t uniq_id = 0;
    /// The execution target (broker rank), -1 when the vertex has none.
    std::int64_t rank = -1;
    /// How much the vertex holds, in `unit`s (memory, storage); 1 for most types.
    std::int64_t size = 1;
    std::string unit;
    bool exclusive = false;
    /// False when Fluxion's status says the vertex is down.
    bool up = true;
    /// Property name and value, as written (Fluxion matches names only).
    std::vector<std::pair<std::string, std::string>> properties;
    /// Subsystem and path ("containment", "/cluster0/node1"), as written.
    std::vector<std::pair<std::string, std::string>> paths;
    /// The containment parent (none for the root) and children in edge order.
    std::uint32_t parent = none;
    std::vector<std::uint32_t> children;

    /// Whether the vertex has a property of that name.
    bool has_property(std::string_view property) const noexcept;
    /// The containment path, or "" when there is none.
    std::string_view containment_path() const noexcept;
};

/// An edge of a subsystem other than containment, kept as read and not used in matching.
struct FluxionEdge {
    std::uint32_t source = 0;
    std::uint32_t target = 0;
    std::string subsystem;
};

/// What a graph has of one type: how many vertices, how many of them up, and how they are
/// measured (pooled: a size other than 1 or a unit, as memory and storage are).
struct FluxionType {
    /// Its place among the graph's types (FluxionGraph::Brief::type).
    std::uint32_t index = 0;
    std::size_t count = 0;
    std::size_t up = 0;
    bool pooled = false;
    /// The unit of the first vertex of the type that gives one ("GB"), or "".
    std::string unit;
};

/// Fluxion's resource graph: its vertices (in the order read), the containment tree among
/// them (a tree rooted at `root`, at most Limits::depth_ceiling deep, as the reader makes
/// it) and the other subsystems' edges; and what is derived from them once (index()).
struct JOBSPEC_API FluxionGraph {
    std::vector<FluxionVertex> vertices;
    std::uint32_t root = 0;
    std::vector<FluxionEdge> other_edges;
    /// Each vertex's rank in R's execution, for the nodes the containment tree reaches
    /// from the root (Fluxion visits no other): a node's own rank when every such node
    /// has one of its own of at least 0, else those nodes numbered 0, 1, ... in vertex
    /// order (resource-query's graphs leave ranks at -1); a vertex beneath a node has the
    /// node's; -1 for the others, and for a node outside the tree.
    std::vector<std::int64_t> execution_ranks;
    /// Each type's summary.
    std::map<std::string, FluxionType, std::less<>> types;
    /// What matching reads of each vertex most, kept together: its size, its type's
    /// index, whether it is up.
    struct Brief {
        std::int64_t size = 1;
        std::uint32_t type = 0;
        bool up = true;
    };
    std::vector<Brief> briefs;
    static constexpr std::uint32_t no_type = std::numeric_limits<std::uint32_t>::max();

    /// Derives execution_ranks, types and briefs from the vertices. The reader calls it; a graph
    /// built otherwise calls it once its vertices are there.
    void index();
    /// How many vertices of that type the graph has.
    std::size_t count(std::string_view type) const noexcept;
    /// The index of a type (FluxionType::index), or no_type when no vertex has it.
    std::uint32_t type_index(std::string_view type) const noexcept;
};

} // namespace jobspec
