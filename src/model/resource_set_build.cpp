#include "model/resource_set_build.hpp"

#include <algorithm>

#include "model/resource_set_access.hpp"

namespace jobspec::model {

namespace {

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

std::string children_key(const IdSet& cores, const IdSet& gpus) {
    return cores.format() + '|' + gpus.format();
}

} // namespace

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

std::string bracketed(const IdSet& s) {
    return s.count() == 1 ? s.format() : "[" + s.format() + "]";
}

std::string children_text(const IdSet& cores, const IdSet& gpus) {
    std::string out;
    if (!cores.empty())
        out += "core" + bracketed(cores);
    if (!gpus.empty())
        out += (out.empty() ? "gpu" : ",gpu") + bracketed(gpus);
    return out;
}

std::string first_clash(const ResourceSet& a, const ResourceSet& b) {
    for (const auto& p : sweep(a.groups(), b.groups())) {
        if (p.a == nullptr || p.b == nullptr)
            continue;
        const std::string both =
            children_text(p.a->cores.intersected(p.b->cores), p.a->gpus.intersected(p.b->gpus));
        if (!both.empty())
            return "rank " + bracketed(IdSet::range(p.first, p.last)) + " has " + both;
    }
    return {};
}

void Grouper::add(std::uint64_t first, std::uint64_t last, const IdSet& cores, const IdSet& gpus) {
    const auto [it, inserted] = index_.emplace(children_key(cores, gpus), groups_.size());
    if (inserted)
        groups_.push_back(Group{{}, cores, gpus});
    groups_[it->second].ranks.insert(first, last);
}

void Grouper::add(const IdSet& ranks, const IdSet& cores, const IdSet& gpus) {
    for (const auto& r : ranks.ranges())
        add(r.first, r.last, cores, gpus);
}

HostPicker::HostPicker(const ResourceSet& set)
    : ranks_(set.ranks()), cursor_(set.nodelist()), known_(!set.nodelist().empty() || set.empty()) {
}

void HostPicker::take(std::uint64_t first, std::uint64_t last, Hostlist& out) {
    const auto& ranges = ranks_.ranges();
    while (range_ < ranges.size() && ranges[range_].last < first) {
        before_ += ranges[range_].last - ranges[range_].first + 1;
        ++range_;
    }
    if (range_ == ranges.size())
        return;
    const std::uint64_t position = before_ + (first - ranges[range_].first);
    cursor_.skip(position - at_);
    cursor_.take(last - first + 1, out);
    at_ = position + (last - first + 1);
}

void SetBuilder::add(std::uint64_t first, std::uint64_t last, const IdSet& cores, const IdSet& gpus,
                     HostPicker& hosts) {
    groups_.add(first, last, cores, gpus);
    ranks_.insert(first, last);
    if (!hosts.known())
        known_ = false;
    if (known_)
        hosts.take(first, last, hosts_);
}

ResourceSet SetBuilder::take() {
    ResourceSet out;
    ResourceSetAccess::assign(out, groups_.take());
    if (known_)
        out.set_nodelist(std::move(hosts_));
    return out;
}

} // namespace jobspec::model
