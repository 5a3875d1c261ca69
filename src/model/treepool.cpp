// RFC 49's TreePool scheduling key through R's rank operations.
#include "model/treepool.hpp"

#include <optional>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "model/decoders.hpp"

namespace jobspec::model {

bool is_treepool(const boost::json::value& scheduling) {
    const auto* object = scheduling.if_object();
    if (object == nullptr)
        return false;
    const auto* writer = object->if_contains("writer");
    return writer != nullptr && writer->is_string() && writer->get_string() == "TreePool";
}

boost::json::value treepool_mapped(const boost::json::value& scheduling,
                                   const std::function<IdSet(const IdSet&)>& ranks) {
    if (!is_treepool(scheduling))
        return scheduling;
    boost::json::value out = scheduling;
    auto* children = out.as_object().if_contains("children");
    if (children == nullptr || !children->is_array())
        return out;
    boost::json::array kept;
    for (auto& entry : children->as_array()) {
        auto* object = entry.if_object();
        auto* text = object != nullptr ? object->if_contains("ranks") : nullptr;
        std::optional<IdSet> decoded;
        if (text != nullptr && text->is_string())
            if (auto d = decode_idset(std::string_view(text->get_string())))
                decoded = std::move(*d);
        if (!decoded) {
            kept.push_back(std::move(entry));  // not RFC 49's: left as it is
            continue;
        }
        const IdSet mapped = ranks(*decoded);
        if (mapped.empty())
            continue;
        *text = mapped.format();
        kept.push_back(std::move(entry));
    }
    *children = std::move(kept);
    return out;
}

} // namespace jobspec::model
