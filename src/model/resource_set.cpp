#include <jobspec/resource_set.hpp>
#include <jobspec/text.hpp>

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "model/host_cursor.hpp"
#include "model/hostlist_pieces.hpp"
#include "model/resource_set_access.hpp"
#include "support/utf8.hpp"

namespace jobspec {

namespace {

using Group = ResourceSet::Group;

std::string children_key(const IdSet& cores, const IdSet& gpus) {
    return cores.format() + '|' + gpus.format();
}

/// A rank range, the group it came from in each of two sets (nullptr: none).
struct Piece {
    std::uint64_t first;
    std::uint64_t last;
    const Group* a;
    const Group* b;
};

struct Tagged {
    std::uint64_t first;
    std::uint64_t last;
    const Group* group;
};

std::vector<Tagged> tagged_ranges(const std::vector<Group>& groups) {
    std::vector<Tagged> out;
    for (const auto& g : groups)
        for (const auto& r : g.ranks.ranges())
            out.push_back({r.first, r.last, &g});
    std::sort(out.begin(), out.end(),
              [](const Tagged& x, const Tagged& y) { return x.first < y.first; });
    return out;
}

/// Splits the ranks of two sets into ranges over which each side's group is the same:
/// one pass over both sets' sorted rank ranges.
std::vector<Piece> sweep(const std::vector<Group>& a, const std::vector<Group>& b) {
    const auto ta = tagged_ranges(a);
    const auto tb = tagged_ranges(b);
    std::vector<Piece> out;
    std::size_t i = 0;
    std::size_t j = 0;
    std::uint64_t ia = ta.empty() ? 0 : ta[0].first; // where the current a range resumes
    std::uint64_t jb = tb.empty() ? 0 : tb[0].first;
    while (i < ta.size() || j < tb.size()) {
        const bool has_a = i < ta.size();
        const bool has_b = j < tb.size();
        const std::uint64_t start = !has_b ? ia : !has_a ? jb : std::min(ia, jb);
        const bool in_a = has_a && ia == start;
        const bool in_b = has_b && jb == start;
        std::uint64_t end = in_a ? ta[i].last : tb[j].last;
        if (in_a && in_b)
            end = std::min(ta[i].last, tb[j].last);
        if (in_a && !in_b && has_b && jb <= end)
            end = jb - 1;
        if (in_b && !in_a && has_a && ia <= end)
            end = ia - 1;
        out.push_back({start, end, in_a ? ta[i].group : nullptr, in_b ? tb[j].group : nullptr});
        if (in_a) {
            if (end == ta[i].last) {
                if (++i < ta.size())
                    ia = ta[i].first;
            } else {
                ia = end + 1;
            }
        }
        if (in_b) {
            if (end == tb[j].last) {
                if (++j < tb.size())
                    jb = tb[j].first;
            } else {
                jb = end + 1;
            }
        }
    }
    return out;
}

/// Collects rank ranges by their children into groups.
class Grouper {
public:
    void add(std::uint64_t first, std::uint64_t last, const IdSet& cores, const IdSet& gpus) {
        const auto [it, inserted] = index_.emplace(children_key(cores, gpus), groups_.size());
        if (inserted)
            groups_.push_back(Group{{}, cores, gpus});
        groups_[it->second].ranks.insert(first, last);
    }
    std::vector<Group> take() { return std::move(groups_); }

private:
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<Group> groups_;
};

/// The union of the groups' ranks: their ranges sorted, then inserted in order.
IdSet union_of_ranks(const std::vector<Group>& groups) {
    std::vector<IdSet::Range> all;
    for (const auto& g : groups)
        all.insert(all.end(), g.ranks.ranges().begin(), g.ranks.ranges().end());
    std::sort(all.begin(), all.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    IdSet out;
    for (const auto& r : all)
        out.insert(r.first, r.last);
    return out;
}

/// "x" for one id, "[x-y,...]" for more.
std::string bracketed(const IdSet& s) {
    return s.count() == 1 ? s.format() : "[" + s.format() + "]";
}

} // namespace

bool ResourceSet::add(const IdSet& ranks, const IdSet& cores, const IdSet& gpus) {
    if (ranks.empty())
        return true;
    const IdSet all = this->ranks();
    if (all.intersects(ranks))
        return false;
    const std::string key = children_key(cores, gpus);
    for (auto& g : groups_) {
        if (children_key(g.cores, g.gpus) == key) {
            g.ranks = g.ranks.united(ranks);
            return true;
        }
    }
    groups_.push_back(Group{ranks, cores, gpus});
    std::sort(groups_.begin(), groups_.end(),
              [](const Group& x, const Group& y) { return x.ranks.first() < y.ranks.first(); });
    return true;
}

IdSet ResourceSet::ranks() const {
    return union_of_ranks(groups_);
}

std::uint64_t ResourceSet::count_ranks() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count();
    return n;
}

std::uint64_t ResourceSet::count_cores() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count() * g.cores.count();
    return n;
}

std::uint64_t ResourceSet::count_gpus() const noexcept {
    std::uint64_t n = 0;
    for (const auto& g : groups_)
        n += g.ranks.count() * g.gpus.count();
    return n;
}

bool ResourceSet::set_nodelist(Hostlist hosts) {
    if (hosts.count() != count_ranks())
        return false;
    nodelist_ = std::move(hosts);
    return true;
}

IdSet ResourceSet::ranks_of(const Hostlist& hosts) const {
    // The asked-for hosts as pieces sorted by key; the nodelist then streams past them,
    // each of its pieces looked up without allocating.
    struct Wanted {
        std::string prefix, suffix;
        std::uint8_t width;
        bool numbered;
        std::uint64_t first, last;
    };
    const auto key = [](std::string_view prefix, std::string_view suffix, std::uint8_t width,
                        bool numbered) { return std::make_tuple(prefix, suffix, width, numbered); };
    const auto key_of = [&](const Wanted& w) {
        return key(w.prefix, w.suffix, w.width, w.numbered);
    };
    std::vector<Wanted> wanted;
    model::for_each_piece(hosts, [&](const model::HostPiece& p) {
        wanted.push_back(
            {std::string(p.prefix), std::string(p.suffix), p.width, p.numbered, p.first, p.last});
    });
    std::sort(wanted.begin(), wanted.end(),
              [&](const Wanted& a, const Wanted& b) { return key_of(a) < key_of(b); });
    std::vector<IdSet::Range> found;
    model::for_each_piece(nodelist_, [&](const model::HostPiece& p) {
        const auto k = key(p.prefix, p.suffix, p.width, p.numbered);
        auto it = std::lower_bound(wanted.begin(), wanted.end(), k,
                                   [&](const Wanted& w, const auto& v) { return key_of(w) < v; });
        for (; it != wanted.end() && key_of(*it) == k; ++it) {
            const std::uint64_t lo = std::max(p.first, it->first);
            const std::uint64_t hi = std::min(p.last, it->last);
            if (lo <= hi)
                found.push_back({p.position + (lo - p.first), p.position + (hi - p.first)});
        }
    });
    std::sort(found.begin(), found.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    IdSet positions;
    for (const auto& r : found)
        positions.insert(r.first, r.last);
    // Positions -> ranks: walk the ranks in order, counting positions.
    IdSet out;
    auto want = positions.ranges().begin();
    std::uint64_t at = 0;
    const IdSet all = ranks();
    for (const auto& r : all.ranges()) {
        const std::uint64_t end = at + (r.last - r.first);
        while (want != positions.ranges().end() && want->first <= end) {
            const std::uint64_t lo = std::max(want->first, at);
            const std::uint64_t hi = std::min(want->last, end);
            out.insert(r.first + (lo - at), r.first + (hi - at));
            if (want->last > end)
                break;
            ++want;
        }
        at = end + 1;
    }
    return out;
}

bool ResourceSet::valid_property_name(std::string_view name) noexcept {
    if (name.empty() || name.find_first_of("!&'\"^`|()") != std::string_view::npos)
        return false;
    return find_invalid_utf8(name) == std::string_view::npos;
}

bool ResourceSet::set_property(std::string_view name, const IdSet& ranks) {
    if (!valid_property_name(name) || !this->ranks().includes(ranks))
        return false;
    auto it = properties_.find(name);
    if (it == properties_.end())
        properties_.emplace(std::string(name), ranks);
    else
        it->second = it->second.united(ranks);
    return true;
}

namespace {

/// The hosts of `keep` (a subset of `all`), given `hosts` for `all` in rank order.
Hostlist hosts_of(const IdSet& all, const Hostlist& hosts, const IdSet& keep) {
    Hostlist out;
    if (hosts.empty())
        return out;
    model::HostCursor cursor(hosts);
    auto k = keep.ranges().begin();
    for (const auto& r : all.ranges()) {
        std::uint64_t at = r.first;
        while (k != keep.ranges().end() && k->first <= r.last) {
            const std::uint64_t from = std::max(k->first, r.first);
            const std::uint64_t to = std::min(k->last, r.last);
            cursor.skip(from - at);
            cursor.take(to - from + 1, out);
            at = to + 1;
            if (k->last > r.last)
                break;
            ++k;
        }
        if (at <= r.last)
            cursor.skip(r.last - at + 1);
    }
    return out;
}

} // namespace

ResourceSet ResourceSet::filtered(const IdSet& keep) const {
    ResourceSet out;
    const IdSet all = ranks();
    const IdSet kept = all.intersected(keep);
    for (const auto& g : groups_) {
        IdSet r = g.ranks.intersected(kept);
        if (!r.empty())
            out.groups_.push_back(Group{std::move(r), g.cores, g.gpus});
    }
    out.nodelist_ = hosts_of(all, nodelist_, kept);
    for (const auto& [name, r] : properties_)
        if (IdSet p = r.intersected(kept); !p.empty())
            out.properties_.emplace(name, std::move(p));
    out.nslots = nslots;
    out.starttime = starttime;
    out.expiration = expiration;
    out.scheduling = scheduling;
    return out;
}

namespace {

/// The result of combining two sets rank by rank: `f(a, b)` gives the children a piece
/// keeps (or nothing to drop it). Hosts, properties and the rest follow from `base`.
template <class F>
ResourceSet combine(const ResourceSet& base, const ResourceSet& other, F f) {
    Grouper grouper;
    for (const auto& p : sweep(base.groups(), other.groups()))
        if (auto kept = f(p.a, p.b))
            grouper.add(p.first, p.last, kept->first, kept->second);
    std::vector<ResourceSet::Group> groups = grouper.take();
    ResourceSet out = base.filtered(union_of_ranks(groups));
    ResourceSetAccess::assign(out, std::move(groups));
    return out;
}

using Children = std::optional<std::pair<IdSet, IdSet>>;

/// A group's cores and gpus, or nothing when both are empty.
Children children(IdSet cores, IdSet gpus) {
    if (cores.empty() && gpus.empty())
        return std::nullopt;
    return std::make_pair(std::move(cores), std::move(gpus));
}

} // namespace

ResourceSet ResourceSet::intersected(const ResourceSet& other) const {
    return combine(*this, other, [](const Group* a, const Group* b) -> Children {
        if (a == nullptr || b == nullptr)
            return std::nullopt;
        return children(a->cores.intersected(b->cores), a->gpus.intersected(b->gpus));
    });
}

ResourceSet ResourceSet::without(const ResourceSet& other) const {
    return combine(*this, other, [](const Group* a, const Group* b) -> Children {
        if (a == nullptr)
            return std::nullopt;
        if (b == nullptr)
            return std::make_pair(a->cores, a->gpus);
        return children(a->cores.without(b->cores), a->gpus.without(b->gpus));
    });
}

bool ResourceSet::includes(const ResourceSet& other) const {
    for (const auto& p : sweep(groups_, other.groups_)) {
        if (p.b == nullptr)
            continue;
        if (p.a == nullptr || !p.a->cores.includes(p.b->cores) || !p.a->gpus.includes(p.b->gpus))
            return false;
    }
    return true;
}

Result<ResourceSet> ResourceSet::united(const ResourceSet& other) const {
    const IdSet mine = ranks();
    const IdSet theirs = other.ranks();
    if (const IdSet both = mine.intersected(theirs); !both.empty()) {
        Diagnostics d;
        d.add(Code::R_overlap, fmt::format("rank {} is in both resource sets", bracketed(both)));
        return Result<ResourceSet>(std::move(d));
    }
    ResourceSet out;
    Grouper grouper;
    for (const auto* set : {this, &other})
        for (const auto& g : set->groups_)
            for (const auto& r : g.ranks.ranges())
                grouper.add(r.first, r.last, g.cores, g.gpus);
    ResourceSetAccess::assign(out, grouper.take());
    // Hosts in rank order: walk the ranks, taking each range's hosts from its own set.
    if (!nodelist_.empty() && !other.nodelist_.empty()) {
        model::HostCursor from_mine(nodelist_);
        model::HostCursor from_theirs(other.nodelist_);
        Hostlist hosts;
        for (const auto& r : out.ranks().ranges()) {
            for (std::uint64_t at = r.first; at <= r.last;) {
                const bool is_mine = mine.contains(at);
                const IdSet& side = is_mine ? mine : theirs;
                auto next = side.ranges().begin();
                while (next->last < at)
                    ++next;
                const std::uint64_t to = std::min(next->last, r.last);
                (is_mine ? from_mine : from_theirs).take(to - at + 1, hosts);
                if (to == r.last)
                    break;
                at = to + 1;
            }
        }
        out.nodelist_ = std::move(hosts);
    }
    for (const auto* set : {this, &other})
        for (const auto& [name, r] : set->properties_)
            out.set_property(name, r);
    out.nslots = nslots;
    out.starttime = starttime;
    out.expiration = expiration;
    out.scheduling = scheduling.is_null() ? other.scheduling : scheduling;
    return out;
}

ResourceSet ResourceSet::remapped() const {
    // Each range of all ranks, with the position of its first rank.
    std::vector<std::pair<IdSet::Range, std::uint64_t>> starts;
    std::uint64_t position = 0;
    for (const auto& r : ranks().ranges()) {
        starts.emplace_back(r, position);
        position += r.last - r.first + 1;
    }
    const auto renumber = [&](const IdSet& r) {
        IdSet out;
        for (const auto& range : r.ranges()) {
            const auto it =
                std::upper_bound(starts.begin(), starts.end(), range.first,
                                 [](std::uint64_t v, const auto& s) { return v < s.first.first; });
            const auto& [whole, at] = *std::prev(it);
            const std::uint64_t first = at + (range.first - whole.first);
            out.insert(first, first + (range.last - range.first));
        }
        return out;
    };
    ResourceSet out;
    std::vector<Group> groups;
    for (const auto& g : groups_)
        groups.push_back(Group{renumber(g.ranks), g.cores, g.gpus});
    ResourceSetAccess::assign(out, std::move(groups));
    out.nodelist_ = nodelist_;
    for (const auto& [name, r] : properties_)
        out.properties_.emplace(name, renumber(r));
    out.nslots = nslots;
    out.starttime = starttime;
    out.expiration = expiration;
    out.scheduling = scheduling;
    return out;
}

Result<ResourceSet> ResourceSet::reranked(const Hostlist& hosts) const {
    Diagnostics d;
    if (nodelist_.empty() && !groups_.empty()) {
        d.add(Code::R_rerank, "the resource set has no nodelist to rerank by");
        return Result<ResourceSet>(std::move(d));
    }
    std::unordered_map<std::string, std::uint64_t> position;
    std::uint64_t at = 0;
    for (auto& host : hosts.expand())
        position.emplace(std::move(host), at++);
    // Old rank -> new rank, one host at a time in rank order.
    std::unordered_map<std::uint64_t, std::uint64_t> renumbered;
    const IdSet all = ranks();
    auto rank = all.begin();
    IdSet used;
    for (const auto& host : nodelist_.expand()) {
        const auto it = position.find(host);
        if (it == position.end()) {
            d.add(Code::R_rerank,
                  fmt::format("host '{}' is not in the hostlist to rerank by", host));
            return Result<ResourceSet>(std::move(d));
        }
        renumbered.emplace(*rank, it->second);
        used.insert(it->second);
        ++rank;
    }
    const auto renumber = [&](const IdSet& r) {
        std::vector<std::uint64_t> ids;
        for (const auto id : r)
            ids.push_back(renumbered.at(id));
        std::sort(ids.begin(), ids.end());
        IdSet out;
        for (const auto id : ids)
            out.insert(id);
        return out;
    };
    ResourceSet out;
    std::vector<Group> groups;
    for (const auto& g : groups_)
        groups.push_back(Group{renumber(g.ranks), g.cores, g.gpus});
    ResourceSetAccess::assign(out, std::move(groups));
    out.nodelist_ = hosts.pick(used);
    for (const auto& [name, r] : properties_)
        out.properties_.emplace(name, renumber(r));
    out.nslots = nslots;
    out.starttime = starttime;
    out.expiration = expiration;
    out.scheduling = scheduling;
    return out;
}

std::string ResourceSet::summary() const {
    std::vector<const Group*> ordered;
    for (const auto& g : groups_)
        ordered.push_back(&g);
    std::sort(ordered.begin(), ordered.end(),
              [](const Group* x, const Group* y) { return x->ranks.first() < y->ranks.first(); });
    std::string out;
    for (const Group* g : ordered) {
        if (!out.empty())
            out += ' ';
        out += "rank" + bracketed(g->ranks) + "/";
        std::string children;
        if (!g->cores.empty())
            children += "core" + bracketed(g->cores);
        if (!g->gpus.empty())
            children += (children.empty() ? "" : ",") + std::string("gpu") + bracketed(g->gpus);
        out += children;
    }
    return out;
}

} // namespace jobspec
