#include "syntax/document.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "support/json_kinds.hpp"

namespace jobspec::syntax {

const DocMember* DocNode::find(std::string_view key) const noexcept {
    for (const auto& m : members)
        if (m.key == key)
            return &m;
    return nullptr;
}

boost::json::value DocNode::to_json() const {
    switch (kind) {
    case Kind::null:
        return nullptr;
    case Kind::boolean:
        return boolean;
    case Kind::integer:
        return integer;
    case Kind::uinteger:
        return uinteger;
    case Kind::real:
        return real;
    case Kind::string:
        return boost::json::value(text);
    case Kind::sequence: {
        boost::json::array a;
        a.reserve(elements.size());
        for (const auto& e : elements)
            a.push_back(e.to_json());
        return a;
    }
    case Kind::mapping: {
        boost::json::object o;
        o.reserve(members.size());
        for (const auto& m : members)
            o.emplace(m.key, m.value.to_json());
        return o;
    }
    }
    return nullptr;
}

std::optional<DocNode> read_document(std::string_view text, DocumentFormat format,
                                     const Limits& limits, Diagnostics& diagnostics) {
    if (format == DocumentFormat::automatic) {
        format = DocumentFormat::yaml;
        for (const char c : text) {
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                continue;
            if (c == '{' || c == '[')
                format = DocumentFormat::json;
            break;
        }
    }
    return format == DocumentFormat::json ? read_json(text, limits, diagnostics)
                                          : read_yaml(text, limits, diagnostics);
}

std::string_view describe(DocNode::Kind kind) noexcept {
    using K = boost::json::kind;
    switch (kind) {
    case DocNode::Kind::null:
        return support::describe(K::null);
    case DocNode::Kind::boolean:
        return support::describe(K::bool_);
    case DocNode::Kind::integer:
    case DocNode::Kind::uinteger:
        return support::describe(K::int64);
    case DocNode::Kind::real:
        return support::describe(K::double_);
    case DocNode::Kind::string:
        return support::describe(K::string);
    case DocNode::Kind::sequence:
        return support::describe(K::array);
    case DocNode::Kind::mapping:
        return support::describe(K::object);
    }
    return "a value";
}

} // namespace jobspec::syntax
