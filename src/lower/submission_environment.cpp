#include "lower/submission_environment.hpp"

#include <algorithm>
#include <cctype>
#include <fnmatch.h>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "lower/submission_values.hpp"
#include "support/python_numbers.hpp"

namespace jobspec::lower {

namespace {

bool identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// VALUE with $$, $NAME and ${NAME} replaced (from `env`, then the caller's environment).
std::optional<std::string> substitute(const std::string& rule, const std::string& value,
                                      const boost::json::object& env, const SubmitContext& context,
                                      Diagnostics& d) {
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] != '$') {
            out += value[i];
            continue;
        }
        std::string name;
        std::size_t next = i + 1;
        if (next < value.size() && value[next] == '$') {
            out += '$';
            i = next;
            continue;
        }
        const bool braced = next < value.size() && value[next] == '{';
        if (braced)
            ++next;
        if (next < value.size() && identifier_start(value[next])) {
            std::size_t end = next;
            while (end < value.size() && identifier_char(value[end]))
                ++end;
            name = value.substr(next, end - next);
            next = end;
        }
        if (name.empty() || (braced && (next >= value.size() || value[next] != '}'))) {
            d.add(Code::submit_value, fmt::format("--env: Unable to substitute {}", rule));
            return std::nullopt;
        }
        if (braced)
            ++next;
        if (const auto* v = env.if_contains(name); v != nullptr && v->is_string()) {
            out += v->get_string();
        } else {
            const auto found = std::find_if(context.environment.begin(), context.environment.end(),
                                            [&](const auto& e) { return e.first == name; });
            if (found == context.environment.end()) {
                d.add(Code::submit_value,
                      fmt::format("--env: Variable '{}' not found in {}", name, rule));
                return std::nullopt;
            }
            out += found->second;
        }
        i = next - 1;
    }
    return out;
}

std::string home_expanded(const std::string& path, const SubmitContext& context) {
    if (path.rfind("~", 0) == 0 && (path.size() == 1 || path[1] == '/'))
        return context.home + path.substr(1);
    return path;
}

/// Removes the keys of `map` that `pattern` matches, keeping the order of the rest; false
/// (reported) for a malformed pattern.
bool erase_matching(boost::json::object& map, const std::string& pattern, Diagnostics& d) {
    std::vector<std::string> gone;
    for (const auto& [name, value] : map) {
        const auto m = pattern_matches(pattern, std::string(name), d);
        if (!m)
            return false;
        if (*m)
            gone.emplace_back(name);
    }
    for (const auto& name : gone)
        map.stable_erase(name);
    return true;
}

bool apply_rule(const std::string& rule, const SubmitContext& context, boost::json::object& env,
                boost::json::object& expand, Diagnostics& d, int depth) {
    if (!rule.empty() && rule[0] == '-') {
        return erase_matching(env, rule.substr(1), d);
    }
    if (!rule.empty() && rule[0] == '^') {
        const std::string path = home_expanded(rule.substr(1), context);
        if (depth > 16) {
            d.add(Code::submit_file,
                  fmt::format("--env: '{}': env files nest more than 16 deep", path));
            return false;
        }
        const auto file = read_submission_file(context, path, "--env: ", FileError::errno_and_path, d);
        if (!file)
            return false;
        std::istringstream in(file->content);
        std::string line;
        while (std::getline(in, line)) {
            const auto first = line.find_first_not_of(" \t\r\f\v");
            const auto last = line.find_last_not_of(" \t\r\f\v");
            line =
                first == std::string::npos ? std::string() : line.substr(first, last - first + 1);
            if (!apply_rule(line, context, env, expand, d, depth + 1))
                return false;
        }
        return true;
    }
    const auto eq = rule.find('=');
    if (eq != std::string::npos) {
        const std::string name = rule.substr(0, eq);
        const std::string value = rule.substr(eq + 1);
        if (value.find("{{") != std::string::npos) {
            expand[name] = value;
            return true;
        }
        auto result = substitute(rule, value, env, context, d);
        if (!result)
            return false;
        env[name] = *result;
        return true;
    }
    for (const auto& [name, value] : context.environment) {
        if (env.contains(name))
            continue;
        const auto m = pattern_matches(rule, name, d);
        if (!m)
            return false;
        if (*m)
            env[name] = value;
    }
    return true;
}

std::string lower_case(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string upper_case(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool apply_rlimit(const std::string& rule, const SubmitContext& context, boost::json::object& map,
                  Diagnostics& d) {
    if (!rule.empty() && rule[0] == '-') {
        return erase_matching(map, lower_case(rule.substr(1)), d);
    }
    const auto eq = rule.find('=');
    if (eq != std::string::npos) {
        const std::string name = lower_case(rule.substr(0, eq));
        const bool known = std::any_of(context.rlimits.begin(), context.rlimits.end(),
                                       [&](const auto& l) { return l.first == name; });
        if (!known) {
            d.add(Code::submit_value, fmt::format("Invalid rlimit \"{}\"", rule.substr(0, eq)));
            return false;
        }
        const std::string value = rule.substr(eq + 1);
        if (value == "unlimited" || value == "infinity" || value == "inf") {
            map[name] = -1;
            return true;
        }
        const auto n = support::python_int(value);
        if (!n) {
            d.add(Code::submit_value, fmt::format("Invalid value in {}", rule));
            return false;
        }
        map[name] = *n;
        return true;
    }
    bool any = false;
    const std::string pattern = upper_case(rule);
    for (const auto& [name, value] : context.rlimits) {
        const auto m = pattern_matches(pattern, upper_case(name), d);
        if (!m)
            return false;
        if (*m) {
            any = true;
            map[name] = value;
        }
    }
    if (!any)
        d.add(Code::submit_value, fmt::format("No corresponding rlimit matching \"{}\"", rule));
    return any;
}

} // namespace

std::optional<bool> pattern_matches(const std::string& pattern, const std::string& name,
                                    Diagnostics& d) {
    if (!pattern.empty() && pattern[0] == '/') {
        std::string re = pattern.substr(1);
        while (!re.empty() && re.back() == '/')
            re.pop_back();
        try {
            const std::regex r(re, std::regex::ECMAScript);
            return std::regex_search(name, r, std::regex_constants::match_continuous);
        } catch (const std::regex_error& e) {
            d.add(Code::submit_value, fmt::format("bad regular expression '{}': {}", re, e.what()));
            return std::nullopt;
        }
    }
    return fnmatch(pattern.c_str(), name.c_str(), FNM_NOESCAPE) == 0;
}

bool apply_environment_rules(const std::vector<std::string>& rules, const SubmitContext& context,
                             boost::json::object& environment, boost::json::object& expand,
                             Diagnostics& d) {
    for (const auto& rule : rules)
        if (!apply_rule(rule, context, environment, expand, d, 0))
            return false;
    return true;
}

std::optional<boost::json::object> rlimit_options(const std::vector<std::string>& rules,
                                                  const SubmitContext& context, Diagnostics& d) {
    boost::json::object map;
    for (const auto& [name, value] : context.rlimits)
        map[name] = value;
    std::vector<std::string> all{"-memlock", "-ofile",  "-msgqueue",  "-nice",
                                 "-rtprio",  "-rttime", "-sigpending"};
    for (const auto& value : rules) {
        std::size_t start = 0;
        while (true) {
            const auto comma = value.find(',', start);
            all.push_back(value.substr(start, comma == std::string::npos ? std::string::npos
                                                                         : comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    }
    for (const auto& rule : all)
        if (!apply_rlimit(rule, context, map, d))
            return std::nullopt;
    return map;
}

} // namespace jobspec::lower
