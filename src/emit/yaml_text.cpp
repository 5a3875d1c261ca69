// YAML text from boost::json values, through yaml-cpp's emitter.
#include <jobspec/emit.hpp>

#include <array>
#include <string_view>

#include <yaml-cpp/emitter.h>
#include <yaml-cpp/emittermanip.h>

#include "support/chars.hpp"

namespace jobspec {

namespace {


/// Whether a YAML 1.1 or 1.2 reader would take this plain scalar for something other than
/// a string: a boolean, null, or a number ("4", "-1.5e3", "0x1F", ".inf", "1:30").
bool reads_as_other_type(std::string_view s) {
    static constexpr std::array<std::string_view, 32> words = {
        "y",    "Y",    "yes",   "Yes",   "YES",   "n",     "N",     "no",   "No",   "NO",  "true",
        "True", "TRUE", "false", "False", "FALSE", "on",    "On",    "ON",   "off",  "Off", "OFF",
        "null", "Null", "NULL",  "~",     ".inf",  "-.inf", "+.inf", ".nan", ".NaN", ".NAN"};
    for (const auto w : words)
        if (s == w)
            return true;
    std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i < s.size() && s[i] == '.')
        ++i;
    if (i >= s.size() || !support::is_digit(s[i]))
        return false;
    // A leading digit: a number unless something other than number characters follows.
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (!support::is_digit(c) && c != '.' && c != '_' && c != ':' && c != 'e' && c != 'E' && c != '+' &&
            c != '-' && c != 'x' && c != 'o' && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F'))
            return false;
    }
    return true;
}

void write_yaml(YAML::Emitter& out, const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::null:
        out << YAML::Null;
        break;
    case boost::json::kind::bool_:
        out << v.get_bool();
        break;
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: {
        // The same number text as the JSON writer; a plain scalar needs no quotes.
        std::string text = to_json_text(v);
        text.pop_back();
        out << text;
        break;
    }
    case boost::json::kind::string: {
        const std::string_view s = v.get_string();
        if (reads_as_other_type(s))
            out << YAML::DoubleQuoted;
        out << std::string(s);
        break;
    }
    case boost::json::kind::array:
        if (v.get_array().empty())
            out << YAML::Flow;
        out << YAML::BeginSeq;
        for (const auto& e : v.get_array())
            write_yaml(out, e);
        out << YAML::EndSeq;
        break;
    case boost::json::kind::object:
        if (v.get_object().empty())
            out << YAML::Flow;
        out << YAML::BeginMap;
        for (const auto& member : v.get_object()) {
            out << YAML::Key;
            write_yaml(out, boost::json::value(member.key()));
            out << YAML::Value;
            write_yaml(out, member.value());
        }
        out << YAML::EndMap;
        break;
    }
}

} // namespace

std::string to_yaml_text(const boost::json::value& value) {
    YAML::Emitter out;
    out.SetNullFormat(YAML::LowerNull);
    out.SetIndent(2);
    write_yaml(out, value);
    std::string text = out.c_str();
    text += '\n';
    return text;
}

} // namespace jobspec
