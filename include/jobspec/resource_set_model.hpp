// ResourceSet: concrete resources (RFC 20 R version 1) and what resource managers do with them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/fluxion_graph_model.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// One entry of RFC 49's TreePool scheduling key: the ranks it describes, and their
/// topology (locality domains) as written.
struct TreePoolEntry {
    IdSet ranks;
    boost::json::value topo;
};

/// The cores and GPUs of some execution targets (ranks), their host names, properties and
/// validity window (RFC 20). Ranks that control the same cores and GPUs are kept as one
/// group, so a homogeneous cluster of any size costs a handful of ranges.
class JOBSPEC_API ResourceSet {
public:
    /// Ranks that each control exactly these cores and GPUs.
    struct Group {
        IdSet ranks;
        IdSet cores;
        IdSet gpus;
    };

    /// Adds ranks that each control `cores` and `gpus`. Returns false (changing nothing)
    /// when one of the ranks is already in the set.
    bool add(const IdSet& ranks, const IdSet& cores, const IdSet& gpus);

    /// The groups, ordered by their first rank; ranks are disjoint across groups and no
    /// two groups have the same cores and GPUs.
    const std::vector<Group>& groups() const noexcept { return groups_; }
    IdSet ranks() const;
    std::uint64_t count_ranks() const noexcept;
    std::uint64_t count_cores() const noexcept;
    std::uint64_t count_gpus() const noexcept;
    bool empty() const noexcept { return groups_.empty(); }

    /// Host names, one per rank in ascending rank order; empty when not known (a set
    /// built with add() alone). R read from JSON always has them (RFC 20 requires them).
    const Hostlist& nodelist() const noexcept { return nodelist_; }
    /// Sets the host names; false (changing nothing) unless there is one per rank.
    bool set_nodelist(Hostlist hosts);

    /// The ranks whose host is one of `hosts` (others are ignored), found by intersecting
    /// runs of names rather than comparing names one by one.
    IdSet ranks_of(const Hostlist& hosts) const;

    /// Property name -> the ranks that have it.
    const std::map<std::string, IdSet, std::less<>>& properties() const noexcept {
        return properties_;
    }
    /// Whether a name can be a property (RFC 20: UTF-8, none of ! & ' " ^ ` | ( ), not empty).
    static bool valid_property_name(std::string_view name) noexcept;
    /// Adds ranks to a property. False (changing nothing) when the name is not valid or a
    /// rank is not in the set.
    bool set_property(std::string_view name, const IdSet& ranks);

    std::optional<std::int64_t> nslots;
    /// Seconds since the epoch; 0 means unset (RFC 20).
    double starttime = 0;
    double expiration = 0;
    /// The scheduling key (null when absent), carried along: its writer's to read. When
    /// it is TreePool's (RFC 49: writer "TreePool"), its "children" entries are read into
    /// `treepool` and its "children" member here is null, keeping its place.
    boost::json::value scheduling;
    /// TreePool's children entries, their ranks read once; the operations below keep
    /// them to the set's ranks. Nothing when the scheduling key is not TreePool's.
    std::optional<std::vector<TreePoolEntry>> treepool;
    /// Fluxion's resource graph, when the scheduling key is Fluxion's JGF (writer absent,
    /// "fluxion" or "fluxion:jgf") or the set was read from a JGF document; the scheduling
    /// key's "graph" member is then null, keeping its place. Shared, never changed: the
    /// operations below carry it as they carry the scheduling key.
    std::shared_ptr<const FluxionGraph> fluxion_graph;

    /// Only the resources of these ranks (with their hosts and properties); nslots,
    /// starttime, expiration and scheduling are kept, a TreePool scheduling key with its
    /// children trimmed to these ranks (RFC 49).
    ResourceSet filtered(const IdSet& ranks) const;

    // The set operations work rank by rank, as flux-core's `flux R` does. Their results
    // carry no nslots, starttime or expiration (those describe one allocation); the
    // scheduling key is this set's (for intersected() only when a rank is left), or when
    // it has none the other's for united() and appended().

    /// Per rank, the cores and GPUs of either set, computed as flux-core does: this set
    /// without the other's resources, then the other's added. So a rank in both keeps this
    /// set's host and gains the other's properties, unless the other set has all of the
    /// rank's resources: then it is the other set's rank (host and properties).
    ResourceSet united(const ResourceSet& other) const;
    /// united(), but fails (R.overlap) when a core or GPU of a rank is in both sets
    /// (`flux R append`).
    Result<ResourceSet> appended(const ResourceSet& other) const;
    /// Per rank in both sets (with the same host, when both know it), the cores and GPUs
    /// both have; ranks left with neither are dropped. Properties are not kept.
    ResourceSet intersected(const ResourceSet& other) const;
    /// Per rank, the cores and GPUs of this set that `other` lacks (hosts are not
    /// compared); ranks left with neither are dropped. This set's properties are kept.
    ResourceSet without(const ResourceSet& other) const;
    /// Whether every core and GPU of `other` is in this set, on the same rank.
    bool includes(const ResourceSet& other) const;

    /// Ranks renumbered 0..n-1 in rank order and each rank's cores renumbered 0..k-1 in
    /// order; GPU ids stay as they are. Example: rank 4 with cores 0,2,4 and GPU 1 ->
    /// rank 0 with cores 0-2 and GPU 1. Hosts, properties and the rest follow, TreePool's
    /// children ranks too (RFC 49's normalization for a sub-instance).
    ResourceSet remapped() const;
    /// Each rank renumbered to the position of its host in `hosts` (RFC 20's note on
    /// re-ranking when an instance starts on a subset). Fails (R.rerank) when `hosts` names
    /// more or fewer hosts than the set has ranks, a host twice, or a host the set does not
    /// have, when the set has no nodelist, and past 2^24 ranks (it goes host by host).
    Result<ResourceSet> reranked(const Hostlist& hosts) const;

    /// Checks `actual`, one rank's resources as found, against this set, the resources
    /// that rank should have (`flux R verify`). Errors: `actual` does not have exactly one
    /// rank, or that rank is not in this set (R.verify-rank); the hosts differ, where both
    /// are known (R.verify-hostname); a core or GPU of the rank here is missing from
    /// `actual` (R.verify). A warning when `actual` has more (R.verify-extra).
    /// No errors means the rank has everything it should.
    Diagnostics verify(const ResourceSet& actual) const;

    /// One line, e.g. "rank[19-22]/core[0-47],gpu[0-7]" (groups separated by spaces).
    std::string summary() const;

private:
    friend struct ResourceSetAccess;

    std::vector<Group> groups_;
    Hostlist nodelist_;
    std::map<std::string, IdSet, std::less<>> properties_;
};

} // namespace jobspec
