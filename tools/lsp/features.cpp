#include "features.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include <jobspec/attributes.hpp>
#include <jobspec/dependency_rules.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

namespace jobspec::cli::lsp {

namespace {

/// LSP CompletionItemKind values used here.
constexpr int kind_field = 5;
constexpr int kind_class = 7;
constexpr int kind_property = 10;
constexpr int kind_enum_member = 20;

struct Entry {
    std::string_view name;
    std::string_view doc;
};

// The resource types RFC 14 and RFC 46 use in their examples, and what each is. Any
// other name is a type too: these are what an editor offers.
constexpr std::array<Entry, 10> resource_types = {{
    {"node", "a compute node"},
    {"slot", "a task slot (a type RFC 14 reserves): the resources the tasks run in; it needs "
             "a `label` and `with`"},
    {"core", "a processor core"},
    {"gpu", "a GPU"},
    {"socket", "a processor socket of a node"},
    {"memory", "memory: `count` is an amount in the vertex's `unit` (e.g. GB)"},
    {"storage", "storage: `count` is an amount in the vertex's `unit`"},
    {"cluster", "a cluster: a group of nodes"},
    {"rack", "a rack of nodes"},
    {"switch", "the nodes behind one network switch"},
}};

// What the system attributes the library knows (system_attribute_names(), the list the
// canonical pass's did-you-mean uses) mean, for hover and completion.
constexpr std::array<Entry, 12> system_attributes = {{
    {"duration", "a number of seconds, at least 0: how long the resources are allocated; 0 "
                 "means unset (the instance's default)"},
    {"preemptible-after", "a number of seconds, at least 0: the run time after which the job "
                          "may be cancelled for other jobs"},
    {"environment", "a dictionary of environment variables to set for the tasks (a `null` "
                    "value unsets one)"},
    {"cwd", "a string: the absolute path of the directory the tasks start in"},
    {"queue", "a string: the queue the job is submitted to"},
    {"bank", "a string: the accounting bank the job is charged to"},
    {"project", "a string: the accounting project of the job"},
    {"dependencies", "a list of RFC 26 dependencies: what must happen before the job runs"},
    {"constraints", "an RFC 31 constraint: properties the job's resources must have"},
    {"job", "a dictionary of job metadata (strings), such as `name`"},
    {"shell", "a dictionary for the job shell: `options` for it and its plugins"},
    {"files", "an RFC 37 file archive of files made available to the job (`script` is the "
              "batch script)"},
}};

// RFC 14's keys (and a range dictionary's), for hovering in a jobspec.
constexpr std::array<Entry, 24> jobspec_keys = {{
    {"version", "**version** (integer, required): the jobspec language version, 1"},
    {"resources", "**resources** (list, required): the resource vertices the program needs, "
                  "at least one"},
    {"tasks", "**tasks** (list, required): the tasks to run, at least one; each has a "
              "`command`, a `slot` and a `count`"},
    {"attributes", "**attributes** (dictionary, required): `system` attributes, which Flux "
                   "reads, and `user` attributes, which it keeps"},
    {"type", "**type** (string, required): the type of resource to match, e.g. `node`, "
             "`core`, `gpu`; `slot` is reserved for task slots"},
    {"count", "**count**: in a resource vertex, how many: a positive integer, an RFC 22 "
              "idset or RFC 45 range string (`2+`, `3-30`), or a dictionary with `min` and "
              "optionally `max`, `operator`, `operand`; in a task, a dictionary with exactly "
              "one of `per_slot`, `per_resource`, `total`"},
    {"with", "**with** (list): the resource vertices inside this one, at least one"},
    {"label", "**label** (string): a name for this vertex, unique in the jobspec; required on "
              "a `slot`, which tasks name in their `slot`"},
    {"exclusive", "**exclusive** (boolean): whether the resource is allocated to this job "
                  "alone; false by default outside a task slot, true for a slot and what it "
                  "holds"},
    {"unit", "**unit** (string): the unit of `count`, e.g. `GB` for memory"},
    {"id", "**id** (string): the identifiers of the resources that may match"},
    {"per_slot", "**per_slot** (positive integer): how many tasks run on each task slot"},
    {"per_resource", "**per_resource** (dictionary of `type` and `count`): how many tasks run "
                     "on each resource of `type` in the task's slot"},
    {"total", "**total** (positive integer): how many tasks run across all task slots, "
              "possibly more than one a slot"},
    {"slot", "**slot** (string): the `label` of the task slot the tasks run in"},
    {"command", "**command** (list of strings): the program and its arguments"},
    {"distribution", "**distribution** (string): a hint to the launcher's task placement"},
    {"system", "**system** (dictionary): attributes Flux reads (`duration`, `environment`, "
               "`cwd`, `queue`, `dependencies`, ...); one it does not know is only warned "
               "about"},
    {"user", "**user** (dictionary): attributes for the user's own use, kept as written"},
    {"min", "**min** (positive integer): the least count of the range"},
    {"max", "**max** (integer, at least `min`): the greatest count of the range; without it "
            "there is no greatest"},
    {"operator", "**operator** (`+`, `*` or `^`): how each acceptable count follows from the "
                 "last (`+` unless given)"},
    {"operand", "**operand** (positive integer): what the operator applies (1 unless given; "
                "at least 2 for `*` and `^`)"},
    {"x", "**x**: short for `exclusive`"},
}};

constexpr std::array<Entry, 10> scheme_docs = {{
    {"after", "after the job with this id starts"},
    {"afterstart", "after the job with this id starts (flux-core's name for `after`)"},
    {"afterany", "after the job with this id ends, however it ends"},
    {"afterok", "after the job with this id ends successfully"},
    {"afternotok", "after the job with this id ends unsuccessfully"},
    {"afterexcept", "after the job with this id ends with an exception"},
    {"begin-time", "not before this time (seconds since the epoch)"},
    {"string", "an RFC 26 symbolic dependency (needs `type` and `scope`)"},
    {"fluid", "an RFC 26 job-id dependency (needs `type` and `scope`)"},
    {"singleton", "while no other job of this user with the same name is active"},
}};

template <std::size_t N>
std::string_view find_doc(const std::array<Entry, N>& table, std::string_view name) {
    for (const auto& e : table)
        if (e.name == name)
            return e.doc;
    return {};
}

std::string_view find_jobspec_key(std::string_view name) {
    if (auto doc = find_doc(jobspec_keys, name); !doc.empty())
        return doc;
    return find_doc(system_attributes, name);
}

/// flux batch's options: each name ("-N", "--nodes") with its usage ("-N, --nodes=VALUE").
const std::map<std::string, std::string, std::less<>>& option_usages() {
    static const auto table = [] {
        std::map<std::string, std::string, std::less<>> out;
        for (const auto& usage : submit_option_usages(SubmitCommand::batch)) {
            std::string_view rest = usage;
            while (!rest.empty()) {
                std::string_view name = rest.substr(0, rest.find(", "));
                rest.remove_prefix(std::min(rest.size(), name.size() + 2));
                name = name.substr(0, name.find_first_of("=["));
                out.emplace(std::string(name), usage);
            }
        }
        return out;
    }();
    return table;
}

bool space(char c) {
    return c == ' ' || c == '\t';
}
bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool key_char(char c) {
    return word_char(c) || c == '-';
}
bool count_char(char c) {
    return (c >= '0' && c <= '9') || c == ',' || c == '+' || c == '-' || c == ':' || c == '*' ||
           c == '^';
}

/// The line of `text` that holds byte `offset`: [begin, end), without its line break.
struct Line {
    std::size_t begin;
    std::size_t end;
};

Line line_at(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t begin = offset;
    while (begin > 0 && text[begin - 1] != '\n' && text[begin - 1] != '\r')
        --begin;
    std::size_t end = offset;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r')
        ++end;
    return {begin, end};
}

/// Where the value of an RFC 36 directive starts in `line` ("^([^\w]*)(flux|FLUX):").
std::optional<std::size_t> directive_value(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && !word_char(line[i]) && static_cast<unsigned char>(line[i]) < 0x80)
        ++i;
    const std::string_view tag = line.substr(i, 5);
    if (tag != "flux:" && tag != "FLUX:")
        return std::nullopt;
    return i + 5;
}

/// The run of bytes around `offset` for which `in` holds: [begin, end).
template <class Pred>
std::pair<std::size_t, std::size_t> span_at(std::string_view text, std::size_t offset,
                                            std::size_t low, std::size_t high, Pred in) {
    std::size_t begin = offset;
    while (begin > low && in(text[begin - 1]))
        --begin;
    std::size_t end = offset;
    while (end < high && in(text[end]))
        ++end;
    return {begin, end};
}

/// The first few counts of a range, "1, 2, 4, ..." (at most four, then "...").
std::string first_values(std::uint64_t min, std::optional<std::uint64_t> max, char op,
                         std::uint64_t operand) {
    std::string out;
    std::uint64_t v = min;
    for (int i = 0; i < 4; ++i) {
        out += (i > 0 ? ", " : "") + std::to_string(v);
        std::uint64_t next = v;
        bool overflow = false;
        if (op == '+')
            overflow = __builtin_add_overflow(v, operand, &next);
        else if (op == '*')
            overflow = __builtin_mul_overflow(v, operand, &next);
        else
            for (std::uint64_t k = 1; k < operand && !overflow; ++k)
                overflow = __builtin_mul_overflow(next, v, &next);
        if (overflow || next <= v || (max && next > *max))
            return out;
        v = next;
    }
    return out + ", ...";
}

std::optional<Hover> directive_hover(std::string_view text, std::size_t offset) {
    const Line line = line_at(text, offset);
    const auto value = directive_value(text.substr(line.begin, line.end - line.begin));
    if (!value || offset < line.begin + *value)
        return std::nullopt;
    const auto [begin, end] =
        span_at(text, offset, line.begin + *value, line.end, [](char c) { return !space(c); });
    const std::string_view word = text.substr(begin, end - begin);
    if (word.size() < 2 || word[0] != '-')
        return std::nullopt;
    const std::size_t eq = word.find('=');
    std::string_view name = word.substr(0, eq);
    if (name[1] != '-')
        name = name.substr(0, 2); // a short option and its value, "-N2"
    // On the value of --setattr=system.KEY=..., the attribute.
    if (offset >= begin + name.size() && (name == "--setattr" || name == "-S")) {
        std::string_view attr = word.substr(name.size() + (eq == name.size() ? 1 : 0));
        attr = attr.substr(0, attr.find('='));
        if (attr.starts_with("system."))
            attr.remove_prefix(7);
        if (const auto doc = find_doc(system_attributes, attr); !doc.empty())
            return Hover{fmt::format("`attributes.system.{}`: {}", attr, doc), begin, end};
        return std::nullopt;
    }
    const auto& usages = option_usages();
    const auto usage = usages.find(name);
    if (usage == usages.end() || offset >= begin + name.size())
        return std::nullopt;
    return Hover{fmt::format("```\n{}\n```\nan option of `flux batch`", usage->second), begin,
                 begin + name.size()};
}

/// The value of `key: VALUE` (YAML) or `"key": VALUE` (JSON) on the line at `offset`
/// when `offset` is on it: [begin, end) without quotes.
std::optional<std::pair<std::size_t, std::size_t>>
value_of_key(std::string_view text, std::size_t offset, std::string_view key) {
    const Line line = line_at(text, offset);
    std::size_t i = line.begin;
    const auto skip = [&](auto pred) {
        while (i < line.end && pred(text[i]))
            ++i;
    };
    const auto quote = [](char c) { return c == '"' || c == '\''; };
    skip(space);
    if (i < line.end && text[i] == '-') { // a list item, "- type: node"
        ++i;
        skip(space);
    }
    if (i < line.end && text[i] == '{') // JSON on one line: only its first key
        ++i;
    skip(space);
    if (i < line.end && quote(text[i]))
        ++i;
    if (text.substr(i, key.size()) != key)
        return std::nullopt;
    i += key.size();
    if (i < line.end && quote(text[i]))
        ++i;
    skip(space);
    if (i >= line.end || text[i] != ':')
        return std::nullopt;
    ++i;
    skip(space);
    std::size_t begin = i;
    std::size_t end = i;
    if (i < line.end && quote(text[i])) {
        const char q = text[i];
        begin = ++i;
        while (i < line.end && text[i] != q)
            ++i;
        end = i;
    } else {
        while (i < line.end && text[i] != ',' && text[i] != '}' && text[i] != '#')
            ++i;
        end = i;
        while (end > begin && space(text[end - 1]))
            --end;
    }
    if (offset < begin || offset > end)
        return std::nullopt;
    return std::pair{begin, end};
}

std::optional<Hover> count_hover(std::string_view count, std::size_t begin, std::size_t end) {
    const auto meaning = describe_count(count);
    if (!meaning)
        return std::nullopt;
    return Hover{fmt::format("`count={}`: {}", count, *meaning), begin, end};
}

std::optional<Hover> jobspec_hover(std::string_view text, std::size_t offset) {
    if (const auto v = value_of_key(text, offset, "count"))
        if (auto h = count_hover(text.substr(v->first, v->second - v->first), v->first, v->second))
            return h;
    if (const auto v = value_of_key(text, offset, "type")) {
        const std::string_view type = text.substr(v->first, v->second - v->first);
        if (const auto doc = find_doc(resource_types, type); !doc.empty())
            return Hover{fmt::format("`{}`: {}", type, doc), v->first, v->second};
    }
    const Line line = line_at(text, offset);
    const auto [begin, end] = span_at(text, offset, line.begin, line.end, key_char);
    if (begin == end)
        return std::nullopt;
    std::size_t i = end;
    if (i < line.end && (text[i] == '"' || text[i] == '\''))
        ++i;
    while (i < line.end && space(text[i]))
        ++i;
    if (i >= line.end || text[i] != ':')
        return std::nullopt;
    const auto doc = find_jobspec_key(text.substr(begin, end - begin));
    if (doc.empty())
        return std::nullopt;
    return Hover{std::string(doc), begin, end};
}

std::optional<Hover> shape_hover(std::string_view text, std::size_t offset) {
    const auto [begin, end] = span_at(text, offset, 0, text.size(), count_char);
    if (begin < end) {
        const bool bracketed = begin >= 2 && text[begin - 1] == '[' && text[begin - 2] == '=' &&
                               end < text.size() && text[end] == ']';
        if (bracketed || (begin >= 1 && text[begin - 1] == '='))
            return count_hover(text.substr(begin, end - begin), begin, end);
    }
    const auto [wbegin, wend] = span_at(text, offset, 0, text.size(), word_char);
    if (wbegin == wend)
        return std::nullopt;
    const std::string_view word = text.substr(wbegin, wend - wbegin);
    const char before = wbegin > 0 ? text[wbegin - 1] : '/';
    if (before == '{' || before == ',' || before == '+' || before == '-') {
        if (const auto doc = find_doc(jobspec_keys, word); !doc.empty())
            return Hover{std::string(doc), wbegin, wend};
        return std::nullopt;
    }
    if (const auto doc = find_doc(resource_types, word); !doc.empty())
        return Hover{fmt::format("`{}`: {}", word, doc), wbegin, wend};
    return std::nullopt;
}

void add_entries(Completions& out, const auto& table, int kind, std::string_view prefix = {},
                 std::string_view suffix = {}) {
    for (const auto& e : table)
        out.items.push_back({fmt::format("{}{}", prefix, e.name),
                             fmt::format("{}{}{}", prefix, e.name, suffix), std::string{},
                             std::string(e.doc), kind});
}

Completions directive_completions(std::string_view text, std::size_t offset) {
    Completions out{offset, {}};
    const Line line = line_at(text, offset);
    const auto value = directive_value(text.substr(line.begin, line.end - line.begin));
    if (!value || offset < line.begin + *value)
        return out;
    const std::size_t start = line.begin + *value;
    std::size_t ws = offset;
    while (ws > start && !space(text[ws - 1]))
        --ws;
    const std::string_view word = text.substr(ws, offset - ws);
    std::size_t pe = ws;
    while (pe > start && space(text[pe - 1]))
        --pe;
    std::size_t pb = pe;
    while (pb > start && !space(text[pb - 1]))
        --pb;
    const std::string_view previous = text.substr(pb, pe - pb);

    // The attribute of --setattr=system.KEY, -Ssystem.KEY, -S system.KEY.
    std::optional<std::size_t> attr;
    if (word.starts_with("--setattr="))
        attr = ws + 10;
    else if (word.starts_with("-S") && word.size() > 2)
        attr = ws + 2;
    else if (previous == "-S" || previous == "--setattr")
        attr = ws;
    if (attr) {
        const std::string_view typed = text.substr(*attr, offset - *attr);
        if (typed.find('=') != typed.npos)
            return out;
        // The library's names, each with what it means.
        const auto add_attributes = [&](std::string_view prefix) {
            for (const auto name : system_attribute_names())
                out.items.push_back({fmt::format("{}{}", prefix, name),
                                     fmt::format("{}{}", prefix, name), std::string{},
                                     std::string(find_doc(system_attributes, name)), kind_field});
        };
        if (typed.starts_with("system.")) {
            out.begin = *attr + 7;
            add_attributes("");
        } else if (typed.find('.') == typed.npos) {
            out.begin = *attr;
            add_attributes("system.");
        }
        for (auto& item : out.items)
            item.detail = "attributes.system." + item.label.substr(item.label.rfind('.') + 1);
        return out;
    }
    std::optional<std::size_t> scheme;
    if (word.starts_with("--dependency="))
        scheme = ws + 13;
    else if (previous == "--dependency")
        scheme = ws;
    if (scheme) {
        if (text.substr(*scheme, offset - *scheme).find(':') != std::string_view::npos)
            return out;
        out.begin = *scheme;
        for (const auto name : known_schemes()) {
            const bool takes_value = name != "singleton";
            out.items.push_back({std::string(name), std::string(name) + (takes_value ? ":" : ""),
                                 "dependency scheme (RFC 26)",
                                 std::string(find_doc(scheme_docs, name)), kind_enum_member});
        }
        return out;
    }
    const bool first_word = pe == start;
    if ((word.starts_with('-') && word.find('=') == word.npos) || (word.empty() && first_word)) {
        out.begin = ws;
        for (const auto& [name, usage] : option_usages())
            out.items.push_back({name, name, usage, {}, kind_property});
    }
    return out;
}

Completions jobspec_completions(std::string_view text, std::size_t offset) {
    Completions out{offset, {}};
    const Line line = line_at(text, offset);
    // The value of `type:` up to the cursor.
    std::size_t begin = offset;
    while (begin > line.begin && key_char(text[begin - 1]))
        --begin;
    const auto v = value_of_key(text, begin, "type");
    if (!v || v->first != begin)
        return out;
    out.begin = begin;
    add_entries(out, resource_types, kind_class);
    for (auto& item : out.items)
        item.detail = "resource type";
    return out;
}

Completions shape_completions(std::string_view text, std::size_t offset) {
    Completions out{offset, {}};
    std::size_t begin = offset;
    while (begin > 0 && word_char(text[begin - 1]))
        --begin;
    std::size_t before = begin;
    while (before > 0 && space(text[before - 1]))
        --before;
    const bool vertex_start = before == 0 || text[before - 1] == '/' || text[before - 1] == '[' ||
                              text[before - 1] == ';';
    if (!vertex_start || (begin < offset && text[begin] >= '0' && text[begin] <= '9'))
        return out;
    out.begin = begin;
    add_entries(out, resource_types, kind_class);
    for (auto& item : out.items)
        item.detail = "resource type";
    return out;
}

} // namespace

std::optional<std::string> describe_count(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
        text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() > 200 || text.find(']') != std::string_view::npos)
        return std::nullopt;
    // Read as a shape reads a count: the one count reader.
    auto shape = compile_shape(fmt::format("x=[{}]", text));
    if (!shape.ok() || shape.value().size() != 1)
        return std::nullopt;
    const Count& count = shape.value().front().count;
    if (count.is_fixed())
        return fmt::format("exactly {}", count.fixed());
    if (count.is_idset())
        return fmt::format("one of {}", count.idset().format());
    const CountRange& r = count.range();
    const std::optional<std::uint64_t> max = r.max;
    const std::uint64_t operand = r.operand;
    const char op = static_cast<char>(r.op);
    const std::string bound =
        max ? fmt::format("from {} to {}", r.min, *max) : fmt::format("at least {}", r.min);
    if (op == '+' && operand == 1)
        return bound;
    const std::string step = op == '+'   ? fmt::format("in steps of {}", operand)
                             : op == '*' ? fmt::format("each {} times the last", operand)
                                         : fmt::format("each the last to the power {}", operand);
    return fmt::format("{}, {}: {}", bound, step, first_values(r.min, max, op, operand));
}

std::optional<Hover> hover_at(DocumentKind kind, std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    switch (kind) {
    case DocumentKind::batch_script:
        return directive_hover(text, offset);
    case DocumentKind::jobspec:
        return jobspec_hover(text, offset);
    case DocumentKind::shape:
        break;
    }
    return shape_hover(text, offset);
}

Completions complete_at(DocumentKind kind, std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    switch (kind) {
    case DocumentKind::batch_script:
        return directive_completions(text, offset);
    case DocumentKind::jobspec:
        return jobspec_completions(text, offset);
    case DocumentKind::shape:
        break;
    }
    return shape_completions(text, offset);
}

} // namespace jobspec::cli::lsp
