#include "lower/submission_values.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include <jobspec/text.hpp>

#include "support/chars.hpp"
#include "support/json_text.hpp"
#include "support/python_numbers.hpp"
#include "lower/dependency_lowering.hpp"
#include "support/json_kinds.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

boost::json::object taskmap_object(const syntax::DependencyAst& uri) {
    boost::json::object out;
    std::string scheme = uri.scheme;
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), support::ascii_lower);
    out["scheme"] = scheme;
    out["value"] = uri.value.value_or(std::string());
    for (const auto& o : uri.options) {
        boost::json::value value = support::python_number_or_text(o.value);
        auto* existing = o.key == "scheme" || o.key == "value" ? nullptr : out.if_contains(o.key);
        if (existing != nullptr && existing->is_array())
            existing->get_array().push_back(std::move(value));
        else if (existing != nullptr)
            *existing = boost::json::array{*existing, std::move(value)};
        else
            out[o.key] = std::move(value);
    }
    return out;
}

std::optional<Dependency> flux_dependency(syntax::DependencyAst uri, Diagnostics& d) {
    // flux's "scheme" and "value" options replace the URI's own, the last one winning.
    std::vector<std::pair<std::string, boost::json::value>> replaced;
    std::erase_if(uri.options, [&](const syntax::DependencyAst::Option& o) {
        if (o.key != "scheme" && o.key != "value")
            return false;
        replaced.emplace_back(o.key, support::python_number_or_text(o.value));
        return true;
    });
    Dependency dependency = dependency_from_uri(std::move(uri));
    for (auto& [key, value] : replaced) {
        if (!value.is_string()) {
            d.add(Code::jobspec_dependency,
                  fmt::format("dependency '{}' must be a string, not {}", key,
                              support::describe(value.kind())));
            return std::nullopt;
        }
        (key == "scheme" ? dependency.scheme : dependency.value) = value.get_string();
        (key == "scheme" ? dependency.scheme_range : dependency.value_range) = {};
    }
    return dependency;
}

namespace {

struct Clock {
    int hour = 0, minute = 0, second = 0;
};

bool all_digits(std::string_view s) {
    if (s.empty())
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

/// "3pm", "3:30pm", "15:00", "15:30:45", "noon", "midnight" (am/pm may be the next word).
std::optional<Clock> clock_time(const std::vector<std::string>& words, std::size_t& i) {
    if (i >= words.size())
        return std::nullopt;
    std::string w = words[i];
    if (w == "noon") {
        ++i;
        return Clock{12, 0, 0};
    }
    if (w == "midnight") {
        ++i;
        return Clock{0, 0, 0};
    }
    std::string suffix;
    std::size_t used = 1;
    if (w.size() > 2 && (w.substr(w.size() - 2) == "am" || w.substr(w.size() - 2) == "pm")) {
        suffix = w.substr(w.size() - 2);
        w.resize(w.size() - 2);
    } else if (i + 1 < words.size() && (words[i + 1] == "am" || words[i + 1] == "pm")) {
        suffix = words[i + 1];
        used = 2;
    }
    std::vector<std::string> parts;
    std::stringstream ss(w);
    for (std::string p; std::getline(ss, p, ':');)
        parts.push_back(p);
    if (parts.empty() || parts.size() > 3 || (parts.size() == 1 && suffix.empty()))
        return std::nullopt;
    for (const auto& p : parts)
        if (!all_digits(p) || p.size() > 2)
            return std::nullopt;
    Clock c;
    c.hour = std::stoi(parts[0]);
    c.minute = parts.size() > 1 ? std::stoi(parts[1]) : 0;
    c.second = parts.size() > 2 ? std::stoi(parts[2]) : 0;
    if (parts.size() > 1 && parts[1].size() != 2)
        return std::nullopt;
    if (c.hour > 23 || c.minute > 59 || c.second > 59)
        return std::nullopt;
    if (suffix == "pm" && c.hour < 12)
        c.hour += 12;
    if (suffix == "am" && c.hour == 12)
        c.hour = 0;
    i += used;
    return c;
}

/// ISO 8601 "YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM|-HH:MM]": UTC with Z or an offset, else local.
std::optional<double> iso_8601(const std::string& text) {
    int y = 0, mo = 0, da = 0, h = 0, mi = 0, se = 0, used = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &da, &h, &mi, &used) != 5 ||
        text.size() < 16 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':')
        return std::nullopt;
    std::string_view rest = std::string_view(text).substr(static_cast<std::size_t>(used));
    if (rest.size() >= 3 && rest[0] == ':' && all_digits(rest.substr(1, 2))) {
        se = std::stoi(std::string(rest.substr(1, 2)));
        rest.remove_prefix(3);
    }
    if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59 || se > 60)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = da;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = se;
    if (rest.empty()) {
        tm.tm_isdst = -1;
        return static_cast<double>(std::mktime(&tm));
    }
    int offset = 0;
    if (rest != "Z") {
        if (rest.size() != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' ||
            !all_digits(rest.substr(1, 2)) || !all_digits(rest.substr(4, 2)))
            return std::nullopt;
        offset = (rest[0] == '-' ? -1 : 1) * (std::stoi(std::string(rest.substr(1, 2))) * 3600 +
                                              std::stoi(std::string(rest.substr(4, 2))) * 60);
    }
    return static_cast<double>(timegm(&tm) - offset);
}

std::optional<double> date_phrase(const std::string& text, double now) {
    if (auto iso = iso_8601(text))
        return iso;
    std::vector<std::string> words;
    {
        std::string lower;
        for (char c : text)
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::stringstream ss(lower);
        for (std::string w; ss >> w;)
            words.push_back(w);
    }
    if (words.empty())
        return std::nullopt;
    const std::time_t t = static_cast<std::time_t>(std::floor(now));
    std::tm tm{};
    localtime_r(&t, &tm);
    std::size_t i = 0;
    // "in N units", "N units", "in an hour"
    {
        std::size_t j = words[0] == "in" ? 1 : 0;
        if (j + 1 < words.size() && j + 2 == words.size()) {
            const std::string& n = words[j];
            std::optional<double> count = (n == "a" || n == "an") ? std::optional<double>(1)
                                          : all_digits(n) ? std::optional<double>(std::stod(n))
                                                          : std::nullopt;
            std::string unit = words[j + 1];
            if (unit.size() > 1 && unit.back() == 's')
                unit.pop_back();
            double scale = unit == "second" || unit == "sec" ? 1
                           : unit == "minute" || unit == "min" ? 60
                           : unit == "hour" ? 3600
                           : unit == "day" ? 86400
                           : unit == "week" ? 604800
                                                  : 0;
            if (count && scale > 0)
                return static_cast<double>(t) + *count * scale;
        }
    }
    bool date_given = false;
    bool clock_given = false;
    std::tm day = tm;
    Clock clock{tm.tm_hour, tm.tm_min, tm.tm_sec};
    while (i < words.size()) {
        const std::string& w = words[i];
        if (w == "today" || w == "tomorrow" || w == "yesterday") {
            if (date_given)
                return std::nullopt;
            date_given = true;
            day.tm_mday += w == "tomorrow" ? 1 : w == "yesterday" ? -1 : 0;
            if (!clock_given)
                clock = Clock{};
            ++i;
            continue;
        }
        if (w.size() == 10 && w[4] == '-' && w[7] == '-' && all_digits(w.substr(0, 4)) &&
            all_digits(w.substr(5, 2)) && all_digits(w.substr(8, 2))) {
            if (date_given)
                return std::nullopt;
            date_given = true;
            day.tm_year = std::stoi(w.substr(0, 4)) - 1900;
            day.tm_mon = std::stoi(w.substr(5, 2)) - 1;
            day.tm_mday = std::stoi(w.substr(8, 2));
            if (day.tm_mon > 11 || day.tm_mday < 1 || day.tm_mday > 31)
                return std::nullopt;
            ++i;
            continue;
        }
        if (clock_given)
            return std::nullopt;
        auto c = clock_time(words, i);
        if (!c)
            return std::nullopt;
        clock = *c;
        clock_given = true;
    }
    if (!date_given && !clock_given)
        return std::nullopt;
    day.tm_hour = clock.hour;
    day.tm_min = clock.minute;
    day.tm_sec = clock.second;
    day.tm_isdst = -1;
    const std::time_t when = std::mktime(&day);
    if (when == static_cast<std::time_t>(-1))
        return std::nullopt;
    return static_cast<double>(when);
}

} // namespace

std::optional<double> begin_time(const std::string& text, double now, Diagnostics& d) {
    if (text == "now")
        return std::nearbyint(now * 1e6) / 1e6;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        const auto fsd = support::flux_duration(text.substr(1));
        if (!fsd || std::isnan(*fsd) || *fsd < 0) {
            d.add(Code::submit_value, "invalid Flux standard duration");
            return std::nullopt;
        }
        if (std::isinf(*fsd) || *fsd > 1e11) {
            d.add(Code::submit_value, "timestamp out of range for platform time_t");
            return std::nullopt;
        }
        const double t = text[0] == '+' ? now + *fsd : now - *fsd;
        return std::nearbyint(t * 1e6) / 1e6;
    }
    if (auto t = date_phrase(text, now))
        return t;
    d.add(Code::submit_value, fmt::format("Invalid datetime: \"{}\"", text));
    return std::nullopt;
}

std::optional<boost::json::object> signal_option(const std::string& text, Diagnostics& d) {
    const auto at = text.find('@');
    const std::string sig = text.substr(0, at);
    const std::string time = at == std::string::npos ? std::string() : text.substr(at + 1);
    static const std::pair<const char*, int> names[] = {
        {"SIGHUP", 1},      {"SIGINT", 2},      {"SIGQUIT", 3},    {"SIGILL", 4},
        {"SIGTRAP", 5},     {"SIGABRT", 6},     {"SIGIOT", 6},     {"SIGBUS", 7},
        {"SIGFPE", 8},      {"SIGKILL", 9},     {"SIGUSR1", 10},   {"SIGSEGV", 11},
        {"SIGUSR2", 12},    {"SIGPIPE", 13},    {"SIGALRM", 14},   {"SIGTERM", 15},
        {"SIGSTKFLT", 16},  {"SIGCHLD", 17},    {"SIGCONT", 18},   {"SIGSTOP", 19},
        {"SIGTSTP", 20},    {"SIGTTIN", 21},    {"SIGTTOU", 22},   {"SIGURG", 23},
        {"SIGXCPU", 24},    {"SIGXFSZ", 25},    {"SIGVTALRM", 26}, {"SIGPROF", 27},
        {"SIGWINCH", 28},   {"SIGIO", 29},      {"SIGPOLL", 29},   {"SIGPWR", 30},
        {"SIGSYS", 31},     {"SIGRTMIN", 34},   {"SIGRTMAX", 64},  {"NSIG", 65},
        {"SIG_DFL", 0},     {"SIG_IGN", 1},     {"SIG_BLOCK", 0},  {"SIG_UNBLOCK", 1},
        {"SIG_SETMASK", 2}, {"ITIMER_REAL", 0}, {"ITIMER_VIRTUAL", 1}, {"ITIMER_PROF", 2},
    };
    if (text.empty())
        return std::nullopt;
    std::optional<std::int64_t> signum = sig.empty() ? std::optional<std::int64_t>(10)
                                                     : support::python_int(sig);
    for (const std::string& name : {sig, "SIG" + sig}) {
        if (signum)
            break;
        for (const auto& [n, v] : names)
            if (name == n)
                signum = v;
    }
    if (!signum) {
        d.add(Code::submit_value,
              fmt::format("--signal={}: signal '{}' is invalid", text, sig));
        return std::nullopt;
    }
    if (*signum <= 0) {
        d.add(Code::submit_value, fmt::format("--signal={}: signal must be > 0", text));
        return std::nullopt;
    }
    boost::json::object out;
    out["signum"] = *signum;
    if (time.empty()) {
        out["timeleft"] = 60;
    } else if (auto f = support::python_float(time)) {
        out["timeleft"] = *f;
    } else if (auto fsd = support::flux_duration(time); fsd && !std::isnan(*fsd) && *fsd >= 0) {
        out["timeleft"] = *fsd;
    } else {
        d.add(Code::submit_value,
              fmt::format("--signal={}: invalid Flux standard duration", text));
        return std::nullopt;
    }
    return out;
}

std::optional<syntax::DocNode> json_tree(std::string_view text, const Limits& limits,
                                         Diagnostics& diagnostics) {
    syntax::JsonDialect python;
    python.last_duplicate_wins = true;
    return syntax::read_json(text, limits, diagnostics, python);
}

std::optional<boost::json::value> json_value(std::string_view text, const Limits& limits,
                                             Diagnostics& diagnostics) {
    auto node = json_tree(text, limits, diagnostics);
    if (!node)
        return std::nullopt;
    return node->to_json();
}

std::optional<SubmitFile> read_submission_file(const SubmitContext& context,
                                               const std::string& path, std::string_view prefix,
                                               FileError style, Diagnostics& d) {
    const std::size_t limit = context.limits.max_input_bytes;
    SubmitFile file = context.read_file ? context.read_file(path, limit) : SubmitFile{{}, 0, ENOENT};
    if (file.error != 0) {
        const char* text = std::strerror(file.error);
        d.add(Code::submit_file,
              style == FileError::errno_and_path
                  ? fmt::format("{}[Errno {}] {}: '{}'", prefix, file.error, text, path)
              : style == FileError::path ? fmt::format("{}{}: '{}'", prefix, text, path)
                                         : fmt::format("{}{}", prefix, text));
        return std::nullopt;
    }
    if (file.too_large) {
        d.add(Code::limit_input_size,
              fmt::format("{}'{}' is longer than the limit of {} bytes", prefix, path, limit),
              {}, "raise the limit with --max-input-bytes (max-input-bytes in the C API)");
        return std::nullopt;
    }
    return file;
}

syntax::DocNode setting_value(const std::string& text, const Limits& limits) {
    Diagnostics ignored;
    if (auto node = json_tree(text, limits, ignored))
        return std::move(*node);
    std::string_view t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
        t.remove_suffix(1);
    if (t == "NaN")
        return syntax::DocNode::of(std::nan(""));
    if (t == "Infinity")
        return syntax::DocNode::of(HUGE_VAL);
    if (t == "-Infinity")
        return syntax::DocNode::of(-HUGE_VAL);
    return syntax::DocNode::of(text);
}

void not_an_object(std::string_view path, const boost::json::value& value, std::string_view part,
                   Diagnostics& d) {
    d.add(Code::submit_value, fmt::format("failed to set {} to {}: '{}' is not an object", path,
                                          support::json_text(value), part));
}

bool set_dotted(boost::json::object& object, const std::string& path, boost::json::value value,
                Diagnostics& d, std::string_view shown) {
    boost::json::object* at = &object;
    std::size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        const std::string key =
            path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (dot == std::string::npos) {
            (*at)[key] = std::move(value);
            return true;
        }
        auto [it, inserted] = at->emplace(key, boost::json::object());
        if (!it->value().is_object()) {
            not_an_object(fmt::format("{}{}", shown, path), value, key, d);
            return false;
        }
        at = &it->value().get_object();
        start = dot + 1;
    }
}

boost::json::value* system_json(AttributeList& system, const std::string& key,
                                std::string_view path, const boost::json::value& value,
                                Diagnostics& d) {
    auto entry = std::find_if(system.entries.begin(), system.entries.end(),
                              [&](const Attribute& a) { return a.key == key; });
    if (entry == system.entries.end()) {
        system.entries.push_back({key, boost::json::object(), {}, {}});
        entry = system.entries.end() - 1;
    }
    auto* json = std::get_if<boost::json::value>(&entry->value);
    if (json == nullptr || !json->is_object()) {
        not_an_object(fmt::format("attributes.system.{}.{}", key, path), value, key, d);
        return nullptr;
    }
    return json;
}

bool set_system_json(AttributeList& system, const std::string& key, const std::string& path,
                     boost::json::value value, Diagnostics& d) {
    auto* json = system_json(system, key, path, value, d);
    return json != nullptr &&
           set_dotted(json->get_object(), path, std::move(value), d,
                      fmt::format("attributes.system.{}.", key));
}

namespace {

std::string base64(std::string_view data) {
    static constexpr char table[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(data[i]) << 16) |
                           (static_cast<unsigned char>(data[i + 1]) << 8) |
                           static_cast<unsigned char>(data[i + 2]);
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += table[(v >> 6) & 63];
        out += table[v & 63];
    }
    if (i < data.size()) {
        unsigned v = static_cast<unsigned char>(data[i]) << 16;
        if (i + 1 < data.size())
            v |= static_cast<unsigned char>(data[i + 1]) << 8;
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += i + 1 < data.size() ? table[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// Python int(text, 8) for a permission: "0755", "755", "0o755".
std::optional<unsigned> octal(std::string text) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'O'))
        text.erase(0, 2);
    if (text.empty() || text.size() > 8)
        return std::nullopt;
    unsigned v = 0;
    for (char c : text) {
        if (c < '0' || c > '7')
            return std::nullopt;
        v = v * 8 + static_cast<unsigned>(c - '0');
    }
    return v;
}

} // namespace

std::optional<std::pair<std::string, boost::json::object>>
add_file_entry(const std::string& given, const SubmitContext& context, Diagnostics& d) {
    std::string text;
    for (std::size_t i = 0; i < given.size(); ++i) {
        if (given[i] == '\\' && i + 1 < given.size() && given[i + 1] == 'n') {
            text += '\n';
            ++i;
        } else {
            text += given[i];
        }
    }
    std::string name;
    std::string data;
    std::optional<unsigned> perms;
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq + 1 == text.size()) {
        data = eq == std::string::npos ? text : text.substr(0, eq);
        if (text.find('\n') != std::string::npos) {
            d.add(Code::submit_value, "--add-file: file name missing");
            return std::nullopt;
        }
        const auto slash = data.rfind('/');
        name = slash == std::string::npos ? data : data.substr(slash + 1);
    } else {
        name = text.substr(0, eq);
        data = text.substr(eq + 1);
        if (const auto colon = name.find(':'); colon != std::string::npos)
            if ((perms = octal(name.substr(colon + 1))))
                name.erase(colon);
    }
    boost::json::object entry;
    if (data.find('\n') != std::string::npos) {
        entry["mode"] = 0100000 | perms.value_or(0600);
        entry["data"] = data;
        entry["encoding"] = "utf-8";
        return std::make_pair(name, std::move(entry));
    }
    auto file = read_submission_file(context, data, fmt::format("--add-file={}: ", given),
                                     FileError::errno_and_path, d);
    if (!file)
        return std::nullopt;
    const std::string& content = file->content;
    entry["mode"] = file->mode;
    entry["size"] = content.size();
    if (find_invalid_utf8(content) == std::string_view::npos) {
        entry["data"] = content;
        entry["encoding"] = "utf-8";
    } else {
        entry["data"] = base64(content);
        entry["encoding"] = "base64";
    }
    return std::make_pair(name, std::move(entry));
}

} // namespace jobspec::lower
