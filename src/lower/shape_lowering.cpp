#include "lower/shape_lowering.hpp"

#include "model/codec_codes.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <boost/json/object.hpp>
#include <fmt/format.h>

namespace jobspec::lower {

namespace {

using syntax::ShapeDict;
using syntax::ShapeItem;
using syntax::ShapeValue;
using syntax::ShapeVertex;

std::size_t count_slots(const std::vector<ShapeVertex>& vertices) {
    std::size_t n = 0;
    for (const auto& v : vertices)
        n += (v.type == "slot" ? 1 : 0) + count_slots(v.with);
    return n;
}

/// Whether `s` is a JSON number (RFC 8259 section 6).
bool is_json_number(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < s.size() && s[i] == '-')
        ++i;
    if (i < s.size() && s[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == s.size();
}

constexpr std::array<std::string_view, 3> reserved_keys = {"type", "count", "with"};

class ShapeLowering {
public:
    ShapeLowering(std::string_view default_label, bool single_slot, Diagnostics& diagnostics)
        : default_label_(default_label), single_slot_(single_slot), diags_(diagnostics) {}

    ResourceList list(const std::vector<ShapeVertex>& vertices) {
        ResourceList out;
        out.reserve(vertices.size());
        for (const auto& v : vertices)
            out.push_back(vertex(v));
        return out;
    }

private:
    ResourceVertex vertex(const ShapeVertex& v) {
        ResourceVertex out;
        out.type = v.type;
        out.range = v.range;
        out.type_range = v.type_range;
        if (v.count) {
            out.count = count(*v.count);
            out.count_range = v.count->range;
        }
        properties(v, out);
        out.with = list(v.with);
        out.has_with = v.has_with;
        return out;
    }

    Count count(const syntax::ShapeCount& c) {
        auto parsed = model::decode_count(c.text);
        if (parsed)
            return std::move(*parsed);
        const auto& e = parsed.error();
        const auto begin = c.range.begin + static_cast<std::uint32_t>(e.offset);
        diags_.add(model::code_of(e.kind, model::CountLanguage::shape), e.message,
                   Location{SourceRange{begin, begin + static_cast<std::uint32_t>(e.length)}, {}});
        return Count{};
    }

    void properties(const ShapeVertex& v, ResourceVertex& out) {
        const std::vector<ShapeItem> none;
        const auto& items = v.dict ? v.dict->items : none;
        std::size_t first = 0;
        if (v.type == "slot" && !items.empty()) {
            const ShapeItem& label = items.front();
            if (label.value || label.sign != ShapeItem::Sign::none) {
                diags_.add(Code::shape_slot_label_first,
                           "a slot's braces must start with its label", Location{label.range, {}},
                           "write the label first: slot{NAME,...}");
            } else {
                out.properties.push_back(
                    {"label", boost::json::value(label.key), label.key_range, label.key_range});
            }
            first = 1;
        }
        for (std::size_t i = first; i < items.size(); ++i) {
            const ShapeItem& item = items[i];
            std::string key = item.key == "x" && !item.key_quoted ? "exclusive" : item.key;
            if (std::find(reserved_keys.begin(), reserved_keys.end(), key) != reserved_keys.end()) {
                diags_.add(Code::shape_reserved_key,
                           fmt::format("'{}' cannot be set in braces", key),
                           Location{item.key_range, {}},
                           key == "with" ? "write the vertices it contains after '/'"
                                         : "write the vertex as type=count");
                continue;
            }
            if (out.find(key) != nullptr) {
                diags_.add(Code::shape_duplicate_key, fmt::format("duplicate key '{}'", key),
                           Location{item.key_range, {}});
                continue;
            }
            out.properties.push_back({std::move(key), item_value(item), item.key_range,
                                      item.value ? item.value->range : item.range});
        }
        if (v.type == "slot" && single_slot_ && out.find("label") == nullptr)
            out.properties.insert(out.properties.begin(),
                                  {"label", boost::json::value(default_label_), {}, {}});
    }

    boost::json::value item_value(const ShapeItem& item) {
        if (item.value)
            return value(*item.value);
        return item.sign != ShapeItem::Sign::minus;
    }

    boost::json::value value(const ShapeValue& v) {
        switch (v.kind) {
        case ShapeValue::Kind::string:
            return boost::json::value(v.text);
        case ShapeValue::Kind::word:
            return word(v.text, v.range);
        case ShapeValue::Kind::dict:
            return dict(v.dict);
        case ShapeValue::Kind::array: {
            boost::json::array a;
            a.reserve(v.elements.size());
            for (const auto& e : v.elements)
                a.push_back(value(e));
            return a;
        }
        }
        return nullptr;
    }

    boost::json::object dict(const ShapeDict& d) {
        boost::json::object o;
        for (const auto& item : d.items) {
            if (o.contains(item.key)) {
                diags_.add(Code::shape_duplicate_key, fmt::format("duplicate key '{}'", item.key),
                           Location{item.key_range, {}});
                continue;
            }
            o.emplace(item.key, item_value(item));
        }
        return o;
    }

    /// An unquoted word: true, false, null, a JSON number, or else a string.
    boost::json::value word(const std::string& text, SourceRange range) {
        if (text == "true" || text == "false")
            return text == "true";
        if (text == "null")
            return nullptr;
        if (!is_json_number(text))
            return boost::json::value(text);
        const char* begin = text.data();
        const char* end = text.data() + text.size();
        if (text.find_first_of(".eE") == std::string::npos) {
            std::int64_t n = 0;
            if (std::from_chars(begin, end, n).ec == std::errc{})
                return n;
        } else {
            double d = 0;
            if (std::from_chars(begin, end, d).ec == std::errc{})
                return d;
        }
        diags_.add(Code::limit_integer,
                   fmt::format("number '{}' is out of range (integers must be between {} and {})",
                               text, INT64_MIN, INT64_MAX),
                   Location{range, {}}, "quote it to keep it as a string");
        return nullptr;
    }

    std::string_view default_label_;
    bool single_slot_;
    Diagnostics& diags_;
};

} // namespace

ResourceList lower_shape(const syntax::ShapeAst& ast, std::string_view default_label,
                         Diagnostics& diagnostics) {
    return ShapeLowering(default_label, count_slots(ast.vertices) == 1, diagnostics)
        .list(ast.vertices);
}

} // namespace jobspec::lower
