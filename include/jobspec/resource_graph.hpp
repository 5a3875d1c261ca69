// The ResourceGraph IR: the RFC 14 resource vertices every front end lowers into.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/count.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

/// A key of a resource vertex other than type, count and with: label, unit, exclusive,
/// id, or any other key a shape or document carries. Values are kept as written (a
/// label may be a number here); the canonical pass checks their types.
struct VertexProperty {
    std::string key;
    boost::json::value value;
    SourceRange key_range;
    SourceRange value_range;
};

/// One resource vertex (RFC 14): a type, a count, its other keys in source order and
/// the vertices it contains (`with`). Ranges are byte offsets into the source text and
/// are unknown for vertices that did not come from text.
struct JOBSPEC_API ResourceVertex {
    std::string type;
    Count count;
    std::vector<VertexProperty> properties;
    std::vector<ResourceVertex> with;
    /// Whether `with` was written at all, so an empty `with` can be told from none.
    bool has_with = false;
    /// Whether `count` was written as a string ("2", "1-4"): RFC 14 allows it, RFC 25's V1
    /// takes an integer only.
    bool count_is_string = false;
    SourceRange range;
    SourceRange type_range;
    SourceRange count_range;

    /// The property with that key, or nullptr.
    const VertexProperty* find(std::string_view key) const noexcept;
    /// The label if present and a string, else nothing. The view lives as long as the vertex.
    std::optional<std::string_view> label() const noexcept;
    bool is_slot() const noexcept { return type == "slot"; }
};

/// A resource list: the value of a jobspec's `resources` key.
using ResourceList = std::vector<ResourceVertex>;

} // namespace jobspec
