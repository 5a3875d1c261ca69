// Why a request does not fit a Fluxion graph (graph_explain.hpp).
#include "match/graph_explain.hpp"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <jobspec/limits.hpp>

#include "match/match_explanation.hpp"

namespace jobspec::match::graph {

bool Measures::pooled(std::string_view type) const {
    const auto it = g.types.find(type);
    return it != g.types.end() && it->second.pooled;
}

std::string Measures::unit(std::string_view type) const {
    const auto it = g.types.find(type);
    return it == g.types.end() || it->second.unit.empty() ? "" : " " + it->second.unit;
}

std::string Measures::amount(std::string_view type, std::uint64_t n) const {
    return pooled(type) ? fmt::format("{}{} of {}", n, unit(type), type) : counted(n, type);
}

std::string Explainer::asks(const ResourceList& with) {
    std::vector<std::string> parts;
    for (const auto& c : with)
        parts.push_back(c.is_slot() ? fmt::format("{} of {}", counted(c.count.least(), "slot"),
                                                  asks(c.with))
                                    : m_.amount(c.type, c.count.least()));
    return parts.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(parts, " and "));
}

std::string Explainer::why(Index u, const ResourceVertex& req, std::size_t depth) {
    const auto& v = s_.graph().vertices[u];
    switch (s_.unusable(u)) {
    case Unusable::constraint:
        return fmt::format("{} does not meet the constraints", v.name);
    case Unusable::down:
        return fmt::format("{} is down", v.name);
    case Unusable::busy:
        return fmt::format("{} is not free", v.name);
    case Unusable::no:
        break;
    }
    if (depth > Limits::depth_ceiling)
        return {};
    const List slots = slots_of(req.with);
    if (!slots.empty())
        return why_slots(u, slots, depth);
    for (const auto& c : req.with) {
        const auto sum = s_.qualified_sum(u, c);
        if (c.count.greatest_at_most(sum))
            continue;
        std::uint64_t n = 0, total = 0;
        Index failing = FluxionVertex::none;
        for (auto w : v.children)
            if (s_.graph().vertices[w].type == c.type) {
                ++n;
                total += static_cast<std::uint64_t>(s_.graph().vertices[w].size);
                if (failing == FluxionVertex::none && !s_.qualifies(w, c))
                    failing = w;
            }
        std::string out = fmt::format("per {}: {} asked, {} has {}", v.type,
                                      m_.amount(c.type, c.count.least()), v.name,
                                      have(c.type, n, total));
        const bool pooled = m_.pooled(c.type);
        if (sum < total)
            out += pooled ? fmt::format(", {} of it can be taken", m_.amount(c.type, sum))
                          : fmt::format(", {} of which can hold what each asks",
                                        s_.qualified_count(u, c));
        if (failing != FluxionVertex::none)
            if (auto deeper = why(failing, c, depth + 1); !deeper.empty())
                out += "; " + deeper;
        return out;
    }
    return {};
}

std::string Explainer::have(const std::string& type, std::uint64_t n,
                            std::uint64_t total) const {
    if (!m_.pooled(type))
        return counted(n, type);
    const std::string unit = m_.unit(type);
    if (n != 0 && total % n == 0)
        return fmt::format("{} {} × {}{} ({}{})", n, type, total / n, unit, total, unit);
    return fmt::format("{} {}, {}{} in all", n, type, total, unit);
}

std::string Explainer::why_slots(Index u, const List& slots, std::size_t depth) {
    const auto& v = s_.graph().vertices[u];
    if (!s_.slot_matches(u, slots)) {
        std::vector<std::string> types;
        for (const auto& e : slots.front()->with)
            types.push_back(e.type);
        return fmt::format("per {}: a slot's {} must be children of the {}, and {} has none "
                           "of some",
                           v.type, fmt::join(types, " and "), v.type, v.name);
    }
    const std::uint64_t k = slots.back()->count.least();
    const std::uint64_t made = s_.formable(u, slots);
    if (slots.size() > 1)
        return fmt::format("per {}: {} asked, {} makes {} of the or-slots", v.type,
                           counted(k, "slot"), v.name, made);
    std::vector<std::string> asked, there;
    const ResourceVertex* short_of = nullptr;
    std::string whole;
    for (const auto& e : slots.front()->with) {
        const auto per = e.count.least();
        std::uint64_t n = 0, total = 0;
        for (auto w : v.children)
            if (s_.graph().vertices[w].type == e.type) {
                ++n;
                total += static_cast<std::uint64_t>(s_.graph().vertices[w].size);
            }
        const bool pooled = m_.pooled(e.type);
        if (pooled) {
            const auto unit = m_.unit(e.type);
            asked.push_back(fmt::format("{} × {}{} of {} ({}{})", k, per, unit, e.type,
                                        k * per, unit));
            if (n != 0 && total % n == 0 && per % (total / n) != 0)
                whole = fmt::format(" (each slot's {}{} takes {} whole {})", per, unit,
                                    (per + total / n - 1) / (total / n), e.type);
        } else {
            asked.push_back(m_.amount(e.type, k * per));
        }
        there.push_back(have(e.type, n, total));
        if (short_of == nullptr && s_.shares(u, e, s_.share(u, e)) < k)
            short_of = &e;
    }
    std::string out = fmt::format("per {}: {} asked, {} there, which make {}{}", v.type,
                                  fmt::join(asked, " and "), fmt::join(there, " and "),
                                  counted(made, "slot"), whole);
    if (short_of != nullptr)
        for (auto w : v.children)
            if (s_.graph().vertices[w].type == short_of->type && !s_.qualifies(w, *short_of)) {
                if (auto deeper = why(w, *short_of, depth + 1); !deeper.empty())
                    out += "; " + deeper;
                break;
            }
    return out;
}

} // namespace jobspec::match::graph
