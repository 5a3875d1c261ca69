// Fluxion's xor_slot expansion, bounded.
#include "match/xor_candidates.hpp"

#include <fmt/format.h>

namespace jobspec::match {

std::optional<std::vector<ResourceList>> xor_candidates(const ResourceList& resources,
                                                        std::size_t most) {
    std::vector<ResourceList> base{ResourceList{}};
    std::vector<ResourceVertex> choices;
    for (const ResourceVertex& vertex : resources) {
        auto inner = xor_candidates(vertex.with, most);
        if (!inner)
            return std::nullopt;
        if (vertex.type == "xor_slot") {
            if (choices.size() + inner->size() > most)
                return std::nullopt;
            for (auto& with : *inner) {
                ResourceVertex slot = vertex;
                slot.type = "slot";
                slot.with = std::move(with);
                choices.push_back(std::move(slot));
            }
            continue;
        }
        if (base.size() * inner->size() > most)
            return std::nullopt;
        std::vector<ResourceList> grown;
        grown.reserve(base.size() * inner->size());
        for (const auto& partial : base)
            for (const auto& with : *inner) {
                ResourceList next = partial;
                next.push_back(vertex);
                next.back().with = with;
                grown.push_back(std::move(next));
            }
        base = std::move(grown);
    }
    if (choices.empty())
        return base;
    if (base.size() * choices.size() > most)
        return std::nullopt;
    std::vector<ResourceList> out;
    out.reserve(base.size() * choices.size());
    for (const auto& partial : base)
        for (const auto& choice : choices) {
            out.push_back(partial);
            out.back().push_back(choice);
        }
    return out;
}

Diagnostics too_many_xor_candidates() {
    Diagnostics d;
    d.add(Code::limit_expansion,
          fmt::format("the xor_slots stand for more than {} choices of resources, more than "
                      "Fluxion tries",
                      max_xor_candidates));
    return d;
}

} // namespace jobspec::match
