#include "syntax/document_tree.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "support/json_kinds.hpp"

namespace jobspec::syntax {

DocNode DocNode::make(Kind kind, SourceRange range) {
    DocNode n;
    switch (kind) {
    case Kind::null:
        break;
    case Kind::boolean:
        n.value = false;
        break;
    case Kind::integer:
        n.value = std::int64_t{0};
        break;
    case Kind::uinteger:
        n.value = std::uint64_t{0};
        break;
    case Kind::real:
        n.value = 0.0;
        break;
    case Kind::string:
        n.value = std::string();
        break;
    case Kind::sequence:
        n.value = std::vector<DocNode>();
        break;
    case Kind::mapping:
        n.value = std::vector<DocMember>();
        break;
    }
    n.range = range;
    return n;
}

DocNode DocNode::from_json(const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::null:
        return {};
    case boost::json::kind::bool_:
        return of(v.get_bool());
    case boost::json::kind::int64:
        return of(v.get_int64());
    case boost::json::kind::uint64:
        return of(v.get_uint64());
    case boost::json::kind::double_:
        return of(v.get_double());
    case boost::json::kind::string:
        return of(std::string(v.get_string()));
    case boost::json::kind::array: {
        std::vector<DocNode> elements;
        elements.reserve(v.get_array().size());
        for (const auto& e : v.get_array())
            elements.push_back(from_json(e));
        return of(std::move(elements));
    }
    case boost::json::kind::object: {
        std::vector<DocMember> members;
        members.reserve(v.get_object().size());
        for (const auto& [key, value] : v.get_object())
            members.push_back(DocMember{std::string(key), {}, from_json(value)});
        return of(std::move(members));
    }
    }
    return {};
}

const DocMember* DocNode::find(std::string_view key) const noexcept {
    if (!is_mapping())
        return nullptr;
    for (const auto& m : members())
        if (m.key == key)
            return &m;
    return nullptr;
}

boost::json::value DocNode::to_json() const {
    switch (kind()) {
    case Kind::null:
        return nullptr;
    case Kind::boolean:
        return boolean();
    case Kind::integer:
        return integer();
    case Kind::uinteger:
        return uinteger();
    case Kind::real:
        return real();
    case Kind::string:
        return boost::json::value(text());
    case Kind::sequence: {
        boost::json::array a;
        a.reserve(elements().size());
        for (const auto& e : elements())
            a.push_back(e.to_json());
        return a;
    }
    case Kind::mapping: {
        boost::json::object o;
        o.reserve(members().size());
        for (const auto& m : members())
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
