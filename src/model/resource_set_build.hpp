// Internal: walking resource sets rank range by rank range, and building results from
// the pieces (the set operations, remap and rerank).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <jobspec/resource_set_model.hpp>

#include "model/host_cursor.hpp"

namespace jobspec::model {

using Group = ResourceSet::Group;

/// Ranks first..last, over which set a's group is `a` and set b's is `b` (nullptr: the
/// set does not have those ranks).
struct Piece {
    std::uint64_t first;
    std::uint64_t last;
    const Group* a;
    const Group* b;
};

/// Splits the ranks of two sets into pieces in ascending rank order: one pass over both
/// sets' sorted rank ranges.
std::vector<Piece> sweep(const std::vector<Group>& a, const std::vector<Group>& b);

/// The union of the groups' ranks.
IdSet union_of_ranks(const std::vector<Group>& groups);

/// "x" for one id, "[x-y,...]" for more (flux's short form).
std::string bracketed(const IdSet& s);

/// "core[0-3],gpu0": a rank's children in the short form; "" when it has none.
std::string children_text(const IdSet& cores, const IdSet& gpus);

/// "rank 3 has core[0-1]": the first ranks at which two sets share a core or GPU, or ""
/// when they share none.
std::string first_clash(const ResourceSet& a, const ResourceSet& b);

/// Collects rank ranges by their children into groups (in any rank order).
class Grouper {
public:
    void add(std::uint64_t first, std::uint64_t last, const IdSet& cores, const IdSet& gpus);
    void add(const IdSet& ranks, const IdSet& cores, const IdSet& gpus);
    std::vector<Group> take() { return std::move(groups_); }

private:
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<Group> groups_;
};

/// The hosts of rank ranges of one set, asked for in ascending rank order: a cursor over
/// its nodelist that skips to each range's position, so a pass costs the runs, not the
/// hosts.
class HostPicker {
public:
    explicit HostPicker(const ResourceSet& set);
    /// Whether the set knows its hosts.
    bool known() const noexcept { return known_; }
    /// Appends the hosts of ranks first..last (all of them in the set, in one range of its
    /// ranks, above any range asked for before) to `out`.
    void take(std::uint64_t first, std::uint64_t last, Hostlist& out);

private:
    IdSet ranks_;
    HostCursor cursor_;
    bool known_;
    std::size_t range_ = 0;
    std::uint64_t before_ = 0; // ranks in the ranges before range_
    std::uint64_t at_ = 0;     // the cursor's position
};

/// A result set assembled from pieces in ascending rank order, each with its children
/// and the set its hosts come from; it has a nodelist when every piece's set knows it.
class SetBuilder {
public:
    void add(std::uint64_t first, std::uint64_t last, const IdSet& cores, const IdSet& gpus,
             HostPicker& hosts);
    /// The ranks added so far.
    const IdSet& ranks() const noexcept { return ranks_; }
    ResourceSet take();

private:
    Grouper groups_;
    IdSet ranks_;
    Hostlist hosts_;
    bool known_ = true;
};

} // namespace jobspec::model
