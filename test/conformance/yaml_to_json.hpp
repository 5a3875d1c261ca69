// Test-only: a YAML document (as the RFCs print them) to a JSON value, resolving plain
// scalars with the YAML 1.2 core schema (integers, floats, booleans, null).
#pragma once

#include <charconv>
#include <string>

#include <boost/json/value.hpp>
#include <yaml-cpp/yaml.h>

namespace test {

inline boost::json::value yaml_scalar(const YAML::Node& node) {
    const std::string& s = node.Scalar();
    if (node.Tag() != "?") // quoted
        return boost::json::value(s);
    if (s == "true" || s == "True" || s == "TRUE")
        return true;
    if (s == "false" || s == "False" || s == "FALSE")
        return false;
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL")
        return nullptr;
    std::int64_t i = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), i);
    if (r.ec == std::errc{} && r.ptr == s.data() + s.size())
        return i;
    double d = 0;
    r = std::from_chars(s.data(), s.data() + s.size(), d);
    if (r.ec == std::errc{} && r.ptr == s.data() + s.size() && s.find_first_of(".eE") != s.npos)
        return d;
    return boost::json::value(s);
}

inline boost::json::value yaml_to_json(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Sequence: {
        boost::json::array a;
        for (const auto& e : node)
            a.push_back(yaml_to_json(e));
        return a;
    }
    case YAML::NodeType::Map: {
        boost::json::object o;
        for (const auto& kv : node)
            o.emplace(kv.first.Scalar(), yaml_to_json(kv.second));
        return o;
    }
    case YAML::NodeType::Scalar:
        return yaml_scalar(node);
    default:
        return nullptr;
    }
}

} // namespace test
