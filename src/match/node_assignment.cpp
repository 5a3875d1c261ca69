// NodeAssignment: a maximum flow from requests through classes, by shortest augmenting paths.
#include "match/node_assignment.hpp"

#include <algorithm>
#include <deque>
#include <limits>

#include "support/numbers.hpp"

namespace jobspec::match {

namespace {

/// Flow of the first `n` requests: flow[request][class], or nothing if short.
std::optional<std::vector<std::vector<std::uint64_t>>> flow_of(const NodeAssignment& a,
                                                               std::size_t n) {
    const std::size_t classes = a.sizes.size();
    spend(a.budget, n * classes);
    std::vector<std::vector<std::uint64_t>> flow(n, std::vector<std::uint64_t>(classes, 0));
    std::vector<std::uint64_t> sent(n, 0);
    std::vector<std::uint64_t> used(classes, 0);
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    for (;;) {
        // Breadth first from requests with nodes still to find, through eligible classes
        // and back through requests that already use a class, to a class with room.
        spend(a.budget, n + classes);
        std::vector<std::size_t> request_from(n, none);     // class that reached request
        std::vector<std::size_t> class_from(classes, none); // request that reached class
        std::deque<std::size_t> queue;
        for (std::size_t k = 0; k < n; ++k)
            if (sent[k] < a.needs[k]) {
                request_from[k] = classes; // a source
                queue.push_back(k);
            }
        std::size_t end = none;
        while (!queue.empty() && end == none) {
            const std::size_t k = queue.front();
            queue.pop_front();
            spend(a.budget, classes);
            for (std::size_t c = 0; c < classes && end == none; ++c) {
                if (!a.eligible[k][c] || class_from[c] != none)
                    continue;
                class_from[c] = k;
                if (used[c] < a.sizes[c]) {
                    end = c;
                    break;
                }
                spend(a.budget, n);
                for (std::size_t j = 0; j < n; ++j)
                    if (flow[j][c] > 0 && request_from[j] == none) {
                        request_from[j] = c;
                        queue.push_back(j);
                    }
            }
        }
        if (end == none)
            break;
        // The bottleneck along the path, then push it.
        std::uint64_t push = a.sizes[end] - used[end];
        for (std::size_t c = end;;) {
            const std::size_t k = class_from[c];
            const std::size_t back = request_from[k];
            if (back == classes) {
                push = std::min(push, a.needs[k] - sent[k]);
                break;
            }
            push = std::min(push, flow[k][back]);
            c = back;
        }
        used[end] += push;
        for (std::size_t c = end;;) {
            const std::size_t k = class_from[c];
            flow[k][c] += push;
            const std::size_t back = request_from[k];
            if (back == classes) {
                sent[k] += push;
                break;
            }
            flow[k][back] -= push;
            c = back;
        }
    }
    for (std::size_t k = 0; k < n; ++k)
        if (sent[k] < a.needs[k])
            return std::nullopt;
    return flow;
}

} // namespace

std::uint64_t NodeAssignment::eligible_ranks(std::size_t k) const {
    std::uint64_t n = 0;
    for (std::size_t c = 0; c < sizes.size(); ++c)
        if (eligible[k][c])
            n = support::saturating_sum(n, sizes[c]);
    return n;
}

bool NodeAssignment::feasible(std::size_t requests) const {
    if (requests == 1)
        return eligible_ranks(0) >= needs[0];
    return flow_of(*this, requests).has_value();
}

std::optional<std::vector<std::vector<std::uint64_t>>> NodeAssignment::assign() const {
    return flow_of(*this, needs.size());
}

} // namespace jobspec::match
