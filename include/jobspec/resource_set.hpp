// ResourceSet: concrete resources (RFC 20 R version 1) and what resource managers do with them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

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

    /// Host names, one per rank in ascending rank order; empty when R has none.
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
    /// The opaque scheduling key, carried along unchanged (null when absent).
    boost::json::value scheduling;

    /// Only the resources of these ranks (with their hosts and properties).
    ResourceSet filtered(const IdSet& ranks) const;
    /// Resources in both sets: per rank, the cores and GPUs both have. Ranks left with
    /// neither are dropped.
    ResourceSet intersected(const ResourceSet& other) const;
    /// Resources of this set that `other` lacks, per rank; ranks left empty are dropped.
    ResourceSet without(const ResourceSet& other) const;
    /// Both sets; fails (R.overlap) when a rank is in both.
    Result<ResourceSet> united(const ResourceSet& other) const;
    /// Whether every core and GPU of `other` is in this set, on the same rank.
    bool includes(const ResourceSet& other) const;
    /// The same resources renumbered 0..n-1 in rank order.
    ResourceSet remapped() const;
    /// The ranks renumbered by the position of their host in `hosts` (RFC 20's note on
    /// re-ranking when an instance starts on a subset). Fails (R.rerank) when the set has
    /// no nodelist or a host is not in `hosts`.
    Result<ResourceSet> reranked(const Hostlist& hosts) const;

    /// One line, e.g. "rank[19-22]/core[0-47],gpu[0-7]" (groups separated by spaces).
    std::string summary() const;

private:
    friend struct ResourceSetAccess;

    std::vector<Group> groups_;
    Hostlist nodelist_;
    std::map<std::string, IdSet, std::less<>> properties_;
};

/// Reads R (RFC 20, version 1) from JSON text. Checks and reports (R.* with a JSON
/// pointer): the version, the shape of execution, R_lite entries and their idsets, ranks
/// that appear in two entries, nodelist hostlists and their count against the ranks (an
/// empty nodelist means the hosts are not known),
/// property names and ranks, nslots > 0, expiration after starttime. Unknown keys are
/// warnings; `scheduling` is kept as it is.
JOBSPEC_API Result<ResourceSet> read_resource_set(std::string_view text, const Limits& limits = {});

/// The same, from a JSON value already parsed.
JOBSPEC_API Result<ResourceSet> resource_set_from_json(const boost::json::value& r);

} // namespace jobspec
