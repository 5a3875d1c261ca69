#include <jobspec/resource_graph.hpp>

#include <algorithm>

namespace jobspec {

const VertexProperty* ResourceVertex::find(std::string_view key) const noexcept {
    const auto it = std::find_if(properties.begin(), properties.end(),
                                 [&](const VertexProperty& p) { return p.key == key; });
    return it == properties.end() ? nullptr : &*it;
}

std::optional<std::string_view> ResourceVertex::label() const noexcept {
    const VertexProperty* p = find("label");
    if (p == nullptr || !p->value.is_string())
        return std::nullopt;
    return std::string_view(p->value.get_string());
}

} // namespace jobspec
