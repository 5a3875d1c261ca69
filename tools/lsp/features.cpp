#include "features.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include <jobspec/attributes.hpp>
#include <jobspec/count.hpp>
#include <jobspec/dependency_rules.hpp>
#include <jobspec/grammar_view.hpp>
#include <jobspec/submit.hpp>
#include <jobspec/submit_options.hpp>

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

/// Where the word of a directive at byte `offset` of a batch script is, as the library's
/// RFC 36 reader read it: the directive, which of its arguments holds `offset` (or, in
/// the space before argument `index`, none: `between`), how many of that argument's bytes
/// come before `offset`, and where the argument starts. Nothing when `offset` is not on a
/// directive's value, or the directives cannot be read.
struct DirectiveWord {
    Directive directive;
    std::size_t index = 0;
    bool between = false;
    std::size_t typed = 0;
    std::size_t begin = 0;

    std::string_view word() const {
        return between ? std::string_view{} : std::string_view(directive.arguments[index]);
    }
    /// The argument before this one ("" for the first).
    std::string_view previous() const {
        return index > 0 ? std::string_view(directive.arguments[index - 1]) : std::string_view{};
    }
    /// The script's byte of byte `k` of this argument (its end past the last).
    std::size_t at(std::size_t k) const {
        if (between)
            return begin;
        const auto& o = directive.origins[index];
        return k < o.size() ? o[k] : o.empty() ? begin : o.back() + 1;
    }
};

std::optional<DirectiveWord> directive_word(std::string_view text, std::size_t offset) {
    auto parsed = parse_directives(text);
    if (!parsed.ok())
        return std::nullopt;
    const std::size_t line = 1 + static_cast<std::size_t>(
                                     std::count(text.begin(), text.begin() + offset, '\n'));
    for (auto& d : parsed.value()) {
        if (d.line != line || offset < d.offset)
            continue;
        DirectiveWord found{std::move(d), 0, false, 0, offset};
        const auto& args = found.directive.arguments;
        const auto& origins = found.directive.origins;
        for (std::size_t i = 0; i < args.size() && i < origins.size(); ++i) {
            const auto& o = origins[i];
            if (o.empty() || offset < o.front() || offset > o.back() + 1)
                continue;
            found.index = i;
            found.begin = o.front();
            found.typed = static_cast<std::size_t>(
                std::lower_bound(o.begin(), o.end(), offset) - o.begin());
            return found;
        }
        // Between words: before the first argument that ends after `offset`.
        found.between = true;
        while (found.index < args.size() && found.index < origins.size() &&
               !origins[found.index].empty() && origins[found.index].back() < offset)
            ++found.index;
        if (found.index < args.size() &&
            (found.index >= origins.size() || origins[found.index].empty()))
            return std::nullopt; // an argument flux rewrote: where it is is not known
        return found;
    }
    return std::nullopt;
}

/// What a system attribute is, for "system.KEY=VALUE" or "KEY=VALUE" at [begin, end).
std::optional<Hover> attribute_hover(std::string_view setting, std::size_t begin,
                                     std::size_t end) {
    std::string_view attr = setting.substr(0, setting.find('='));
    if (attr.starts_with("system."))
        attr.remove_prefix(7);
    const auto doc = find_doc(system_attributes, attr);
    if (doc.empty())
        return std::nullopt;
    return Hover{fmt::format("`attributes.system.{}`: {}", attr, doc), begin, end};
}

std::optional<Hover> directive_hover(std::string_view text, std::size_t offset) {
    const auto found = directive_word(text, offset);
    if (!found || found->between)
        return std::nullopt;
    const std::string_view word = found->word();
    const std::size_t begin = found->begin;
    const std::size_t end = found->at(word.size());
    // On the attribute of "-S system.KEY=...", written apart from its option.
    const std::string_view previous = found->previous();
    if (!word.starts_with('-') && (previous == "-S" || previous == "--setattr"))
        return attribute_hover(word, begin, end);
    if (word.size() < 2 || word[0] != '-')
        return std::nullopt;
    const std::size_t eq = word.find('=');
    std::string_view name = word.substr(0, eq);
    if (name[1] != '-')
        name = name.substr(0, 2); // a short option and its value, "-N2"
    // On the value of --setattr=system.KEY=..., the attribute.
    if (found->typed >= name.size() && (name == "--setattr" || name == "-S"))
        return attribute_hover(word.substr(name.size() + (eq == name.size() ? 1 : 0)), begin,
                               end);
    const auto& usages = option_usages();
    const auto usage = usages.find(name);
    if (usage == usages.end() || found->typed >= name.size())
        return std::nullopt;
    return Hover{fmt::format("```\n{}\n```\nan option of `flux batch`", usage->second), begin,
                 found->at(name.size())};
}

std::optional<Hover> count_hover(std::string_view count, std::size_t begin, std::size_t end) {
    const auto parsed = Count::parse(count);
    if (!parsed.ok())
        return std::nullopt;
    return Hover{fmt::format("`count={}`: {}", count, parsed.value().describe()), begin, end};
}

bool within(SourceRange r, std::size_t offset) {
    return r.known() && r.begin <= offset && offset <= r.end;
}

/// Where a key's value is, without the quotes of a quoted string.
SourceRange value_text_range(const DocumentKey& k) {
    SourceRange r = k.value_range;
    if (k.value && r.known() && r.size() == k.value->size() + 2) {
        ++r.begin;
        --r.end;
    }
    return r;
}

std::optional<Hover> jobspec_hover(std::string_view text, std::size_t offset,
                                   const Limits& limits) {
    for (const auto& k : document_keys(text, limits)) {
        if (within(k.key_range, offset)) {
            const auto doc = find_jobspec_key(k.key);
            if (doc.empty())
                return std::nullopt;
            return Hover{std::string(doc), k.key_range.begin, k.key_range.end};
        }
        if (!k.value || !within(k.value_range, offset))
            continue;
        const SourceRange r = value_text_range(k);
        if (k.key == "count")
            return count_hover(*k.value, r.begin, r.end);
        if (const auto doc = find_doc(resource_types, *k.value); k.key == "type" && !doc.empty())
            return Hover{fmt::format("`{}`: {}", *k.value, doc), r.begin, r.end};
        return std::nullopt;
    }
    return std::nullopt;
}

/// A shape's tokens as the library's shape lexer makes them (up to its first fatal
/// error), and which of them is at byte `offset`: the one that holds it, else the one
/// that ends there (the word just typed). `next` is that token, or the first after
/// `offset` when none is there.
struct ShapeTokens {
    std::vector<GrammarToken> tokens;
    std::size_t next = 0;
    bool holds = false;

    const GrammarToken& token() const { return tokens[next]; }
    /// The type of the token before `next` ("" at the start).
    std::string_view before() const {
        return next > 0 ? std::string_view(tokens[next - 1].type) : std::string_view{};
    }
};

ShapeTokens shape_tokens(std::string_view text, std::size_t offset) {
    ShapeTokens out{inspect_grammar(Grammar::shape, text).tokens};
    std::erase_if(out.tokens, [](const GrammarToken& t) { return t.type == "EOF"; });
    while (out.next < out.tokens.size() && out.tokens[out.next].range.end <= offset)
        ++out.next;
    if (out.next < out.tokens.size() && out.tokens[out.next].range.begin <= offset) {
        out.holds = true;
    } else if (out.next > 0 && out.tokens[out.next - 1].range.end == offset) {
        out.holds = true;
        --out.next;
    }
    return out;
}

std::optional<Hover> shape_hover(std::string_view text, std::size_t offset) {
    const ShapeTokens t = shape_tokens(text, offset);
    if (!t.holds)
        return std::nullopt;
    const GrammarToken& token = t.token();
    if (token.type == "COUNT") {
        std::string_view count = token.text;
        std::size_t begin = token.range.begin;
        if (count.size() >= 2 && count.front() == '[' && count.back() == ']') {
            count = count.substr(1, count.size() - 2);
            ++begin;
        }
        return count_hover(count, begin, begin + count.size());
    }
    if (token.type != "NAME")
        return std::nullopt;
    const std::string_view before = t.before();
    if (before == "LBRACE" || before == "COMMA" || before == "PLUS" || before == "MINUS") {
        if (const auto doc = find_doc(jobspec_keys, token.text); !doc.empty())
            return Hover{std::string(doc), token.range.begin, token.range.end};
        return std::nullopt;
    }
    if (const auto doc = find_doc(resource_types, token.text); !doc.empty())
        return Hover{fmt::format("`{}`: {}", token.text, doc), token.range.begin, token.range.end};
    return std::nullopt;
}

/// Every resource type, to replace [out.begin, the cursor).
void add_resource_types(Completions& out) {
    for (const auto& e : resource_types)
        out.items.push_back({std::string(e.name), std::string(e.name), "resource type",
                             std::string(e.doc), kind_class});
}

Completions directive_completions(std::string_view text, std::size_t offset) {
    Completions out{offset, {}};
    const auto found = directive_word(text, offset);
    if (!found)
        return out;
    const std::string_view word = found->word().substr(0, found->typed);
    const std::string_view previous = found->previous();
    const std::size_t ws = found->begin;

    // The attribute of --setattr=system.KEY, -Ssystem.KEY, -S system.KEY.
    std::optional<std::size_t> attr; // where the attribute starts in `word`
    if (word.starts_with("--setattr="))
        attr = 10;
    else if (word.starts_with("-S") && word.size() > 2)
        attr = 2;
    else if (previous == "-S" || previous == "--setattr")
        attr = 0;
    if (attr) {
        const std::string_view typed = word.substr(*attr);
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
            out.begin = found->at(*attr + 7);
            add_attributes("");
        } else if (typed.find('.') == typed.npos) {
            out.begin = found->at(*attr);
            add_attributes("system.");
        }
        for (auto& item : out.items)
            item.detail = "attributes.system." + item.label.substr(item.label.rfind('.') + 1);
        return out;
    }
    std::optional<std::size_t> scheme; // where the scheme starts in `word`
    if (word.starts_with("--dependency="))
        scheme = 13;
    else if (previous == "--dependency")
        scheme = 0;
    if (scheme) {
        if (word.substr(*scheme).find(':') != std::string_view::npos)
            return out;
        out.begin = found->at(*scheme);
        for (const auto name : known_schemes()) {
            const bool takes_value = name != "singleton";
            out.items.push_back({std::string(name), std::string(name) + (takes_value ? ":" : ""),
                                 "dependency scheme (RFC 26)",
                                 std::string(find_doc(scheme_docs, name)), kind_enum_member});
        }
        return out;
    }
    const bool first_word = found->index == 0;
    if ((word.starts_with('-') && word.find('=') == word.npos) || (word.empty() && first_word)) {
        out.begin = ws;
        for (const auto& [name, usage] : option_usages())
            out.items.push_back({name, name, usage, {}, kind_property});
    }
    return out;
}

Completions jobspec_completions(std::string_view text, std::size_t offset,
                                const Limits& limits) {
    Completions out{offset, {}};
    for (const auto& k : document_keys(text, limits)) {
        if (k.key != "type" || offset <= k.key_range.end)
            continue;
        // The value typed so far, or none yet: the reader puts a null where the next
        // token starts, so the cursor is between the key and it, on the key's line.
        const SourceRange r = value_text_range(k);
        if (k.value && within(r, offset))
            out.begin = r.begin;
        else if (!k.null || !r.known() || offset > r.begin ||
                 text.substr(k.key_range.end, offset - k.key_range.end).find('\n') !=
                     std::string_view::npos)
            continue;
        add_resource_types(out);
        return out;
    }
    return out;
}

Completions shape_completions(std::string_view text, std::size_t offset) {
    Completions out{offset, {}};
    const ShapeTokens t = shape_tokens(text, offset);
    if (t.holds && t.token().type != "NAME")
        return out;
    const std::string_view before = t.before();
    if (!before.empty() && before != "SLASH" && before != "LBRACK" && before != "SEMI")
        return out;
    if (t.holds)
        out.begin = t.token().range.begin;
    add_resource_types(out);
    return out;
}

} // namespace

std::optional<Hover> hover_at(DocumentKind kind, std::string_view text, std::size_t offset,
                              const Limits& limits) {
    offset = std::min(offset, text.size());
    switch (kind) {
    case DocumentKind::batch_script:
        return directive_hover(text, offset);
    case DocumentKind::jobspec:
        return jobspec_hover(text, offset, limits);
    case DocumentKind::shape:
        break;
    }
    return shape_hover(text, offset);
}

Completions complete_at(DocumentKind kind, std::string_view text, std::size_t offset,
                        const Limits& limits) {
    offset = std::min(offset, text.size());
    switch (kind) {
    case DocumentKind::batch_script:
        return directive_completions(text, offset);
    case DocumentKind::jobspec:
        return jobspec_completions(text, offset, limits);
    case DocumentKind::shape:
        break;
    }
    return shape_completions(text, offset);
}

} // namespace jobspec::cli::lsp
