#include "api.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/render.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/suggest.hpp>

#include "graphviz_svg.hpp"
#include "languages.hpp"

namespace jobspec::serve {

namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

/// A problem with the request itself, answered with its status and {"error": message}.
struct RequestError {
    unsigned status;
    std::string message;
    /// For 405: the method the path takes.
    std::string_view allow = {};
};

HttpResponse reply(const json::value& body, unsigned status = 200) {
    HttpResponse r;
    r.status = status;
    r.body = to_json_text(body);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

HttpResponse reply(const RequestError& e) {
    return reply(json::object{{"error", e.message}}, e.status);
}

std::string names(const std::vector<std::string_view>& words) {
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : ", ") + std::string(w);
    return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& known) {
    const auto near = closest(word, known);
    return near ? "; did you mean '" + std::string(*near) + "'?" : "; one of: " + names(known);
}

/// The request body as a JSON object whose members are all in `allowed`.
json::object body_object(const HttpRequest& request,
                         std::initializer_list<std::string_view> allowed) {
    const std::string_view type =
        std::string_view(request.content_type).substr(0, request.content_type.find(';'));
    if (type != "application/json")
        throw RequestError{415, "send the request as Content-Type: application/json"};
    json::error_code ec;
    json::parse_options options;
    options.max_depth = 8;
    json::value value = json::parse(request.body, ec, {}, options);
    if (ec)
        throw RequestError{400, "the request body is not JSON: " + ec.message()};
    if (!value.is_object())
        throw RequestError{400, "the request body must be a JSON object"};
    json::object& object = value.as_object();
    for (const auto& member : object)
        if (std::find(allowed.begin(), allowed.end(), member.key()) == allowed.end())
            throw RequestError{400, "unknown member '" + std::string(member.key()) + "'" +
                                        did_you_mean(member.key(), allowed)};
    return std::move(object);
}

std::string string_member(const json::object& body, std::string_view name) {
    const auto* value = body.if_contains(name);
    if (value == nullptr)
        throw RequestError{400, "the request needs \"" + std::string(name) + "\""};
    if (!value->is_string())
        throw RequestError{400, "\"" + std::string(name) + "\" must be a string"};
    return std::string(value->as_string());
}

bool flag_member(const json::object& body, std::string_view name, bool otherwise) {
    const auto* value = body.if_contains(name);
    if (value == nullptr)
        return otherwise;
    if (!value->is_bool())
        throw RequestError{400, "\"" + std::string(name) + "\" must be true or false"};
    return value->as_bool();
}

const Language& language_member(const json::object& body) {
    const std::string name = string_member(body, "language");
    if (const Language* language = find_language(name))
        return *language;
    std::vector<std::string_view> known;
    for (const auto& l : languages())
        known.push_back(l.name);
    throw RequestError{400, "unknown language '" + name + "'" + did_you_mean(name, known)};
}

/// "options": {name: value}, each checked against the language's options and the common ones.
Settings settings_member(const json::object& body, const std::vector<OptionSpec>& specs) {
    Settings settings;
    const auto* options = body.if_contains("options");
    if (options == nullptr)
        return settings;
    if (!options->is_object())
        throw RequestError{400, "\"options\" must be an object"};
    std::vector<std::string_view> known;
    for (const auto* list : {&specs, &common_options()})
        for (const auto& s : *list)
            known.push_back(s.name);
    for (const auto& [key, value] : options->as_object()) {
        const OptionSpec* spec = nullptr;
        for (const auto* list : {&specs, &common_options()})
            for (const auto& s : *list)
                if (s.name == key)
                    spec = &s;
        if (spec == nullptr)
            throw RequestError{400, "unknown option '" + std::string(key) + "'" +
                                        did_you_mean(key, known)};
        const std::string name(key);
        switch (spec->kind) {
        case OptionKind::flag:
            if (!value.is_bool())
                throw RequestError{400, "option '" + name + "' must be true or false"};
            if (value.as_bool())
                settings.values.emplace(name, "true");
            break;
        case OptionKind::choice:
            if (!value.is_string() || std::find(spec->choices.begin(), spec->choices.end(),
                                                value.as_string()) == spec->choices.end())
                throw RequestError{400,
                                   "option '" + name + "' must be one of " + names(spec->choices)};
            settings.values.emplace(name, value.as_string());
            break;
        case OptionKind::text:
            if (!value.is_string() || value.as_string().size() > 256)
                throw RequestError{400,
                                   "option '" + name + "' must be a string (at most 256 bytes)"};
            settings.values.emplace(name, value.as_string());
            break;
        }
    }
    return settings;
}

/// The picture of `dot`, as members "svg" and, when Graphviz failed, "graphviz".
void add_picture(json::object& out, const std::string& dot, const HttpRequest& request,
                 const ApiOptions& options) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(request.deadline - Clock::now());
    const cli::Picture picture = cli::render_svg(
        dot, std::max(std::chrono::milliseconds(1), std::min(options.dot_timeout, left)));
    if (picture.ok()) {
        out["svg"] = picture.svg;
    } else {
        out["svg"] = nullptr;
        out["graphviz"] = picture.error;
    }
}

struct TextRequest {
    const Language& language;
    std::string text;
    Settings settings;
    bool svg;
};

TextRequest text_request(const HttpRequest& request) {
    const json::object body = body_object(request, {"language", "text", "options", "svg"});
    const Language& language = language_member(body);
    return TextRequest{language, string_member(body, "text"),
                       settings_member(body, language.options), flag_member(body, "svg", true)};
}

HttpResponse compile(const HttpRequest& request, const ApiOptions& options) {
    const TextRequest r = text_request(request);
    const Outcome outcome = r.language.compile(r.text, r.settings, options.limits);
    return reply(json::object{{"status", outcome.status},
                              {"output", outcome.output},
                              {"diagnostics", diagnostics_to_json(outcome.diagnostics, r.text)}});
}

Grammar grammar_of(const Language& language) {
    if (!language.grammar)
        throw RequestError{400, "'" + std::string(language.name) +
                                    "' is not read by a grammar: it has no tokens or parse tree"};
    return *language.grammar;
}

GrammarInspection inspect(const TextRequest& r, const ApiOptions& options) {
    InspectOptions inspect_options;
    inspect_options.limits = options.limits;
    return inspect_grammar(grammar_of(r.language), r.text, inspect_options);
}

HttpResponse tokens(const HttpRequest& request, const ApiOptions& options) {
    const TextRequest r = text_request(request);
    const GrammarInspection views = inspect(r, options);
    json::array list;
    for (const auto& t : views.tokens)
        list.push_back(json::object{{"index", t.index},
                                    {"type", t.type},
                                    {"text", t.text},
                                    {"line", t.line},
                                    {"column", t.column},
                                    {"offset", t.range.begin},
                                    {"length", t.range.size()}});
    const Outcome outcome = r.language.compile(r.text, r.settings, options.limits);
    return reply(json::object{{"tokens", std::move(list)},
                              {"diagnostics", diagnostics_to_json(outcome.diagnostics, r.text)}});
}

HttpResponse tree(const HttpRequest& request, const ApiOptions& options) {
    const TextRequest r = text_request(request);
    const GrammarInspection views = inspect(r, options);
    const Outcome outcome = r.language.compile(r.text, r.settings, options.limits);
    json::object out{{"dot", nullptr}, {"svg", nullptr}};
    if (views.tree) {
        std::string dot = tree_dot(*views.tree);
        if (r.svg)
            add_picture(out, dot, request, options);
        out["dot"] = std::move(dot);
    }
    out["diagnostics"] = diagnostics_to_json(outcome.diagnostics, r.text);
    return reply(out);
}

HttpResponse graph(const HttpRequest& request, const ApiOptions& options) {
    const TextRequest r = text_request(request);
    if (r.language.picture != nullptr) {
        const Outcome outcome = r.language.picture(r.text, r.settings, options.limits);
        json::object out{{"status", outcome.status}, {"dot", nullptr}, {"svg", nullptr}};
        if (outcome.status == 0 && r.svg)
            out["svg"] = outcome.output;
        out["diagnostics"] = diagnostics_to_json(outcome.diagnostics, r.text);
        return reply(out);
    }
    if (r.language.graph == nullptr)
        throw RequestError{400, "'" + std::string(r.language.name) +
                                    "' has no picture (shape and jobspec have a resource "
                                    "graph, forecast its schedule)"};
    const Outcome outcome = r.language.graph(r.text, r.settings, options.limits);
    json::object out{{"status", outcome.status}, {"dot", nullptr}, {"svg", nullptr}};
    if (outcome.status == 0) {
        out["dot"] = outcome.output;
        if (r.svg)
            add_picture(out, outcome.output, request, options);
    }
    out["diagnostics"] = diagnostics_to_json(outcome.diagnostics, r.text);
    return reply(out);
}

/// `jobspec match [--free free] [--config CONFIG --queue QUEUE] jobspec R`, CONFIG the
/// server's: the diagnostics name their input, "jobspec", "R" or "free" (a problem in
/// the configuration names its file).
HttpResponse match(const HttpRequest& request, const ApiOptions& options) {
    const json::object body = body_object(request, {"jobspec", "R", "free", "queue", "options"});
    const std::string jobspec_text = string_member(body, "jobspec");
    const std::string r_text = string_member(body, "R");
    const std::string free_text = body.contains("free") ? string_member(body, "free") : "";
    const Settings settings = settings_member(body, {dialect_option()});
    Diagnostics job_diagnostics, r_diagnostics, free_diagnostics;
    // With --strict, warnings stop the run where they are reported, as in the CLI.
    const auto add = [&](Diagnostics& into, const Diagnostics& found) {
        into.append(found);
        if (settings.flag("strict"))
            into.promote_warnings();
        return exit_status(into) == 0;
    };
    const auto finish = [&](std::string output) {
        const int status = std::max({exit_status(job_diagnostics), exit_status(r_diagnostics),
                                     exit_status(free_diagnostics)});
        json::array all = diagnostics_to_json(job_diagnostics, jobspec_text, "jobspec");
        for (auto& d : diagnostics_to_json(r_diagnostics, r_text, "R"))
            all.push_back(std::move(d));
        for (auto& d : diagnostics_to_json(free_diagnostics, free_text, "free"))
            all.push_back(std::move(d));
        return reply(json::object{{"status", status},
                                  {"fits", status == 0},
                                  {"output", status == 0 ? output : std::string()},
                                  {"diagnostics", std::move(all)}});
    };
    const auto blank = [](std::string_view text) {
        return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    };
    // In the CLI's order: R, what is free, then the jobspec and its match, stopping at the
    // first that is wrong.
    if (blank(jobspec_text)) {
        job_diagnostics.add(Code::io_empty, "jobspec is empty");
        return finish({});
    }
    if (blank(r_text)) {
        r_diagnostics.add(Code::io_empty, "R is empty");
        return finish({});
    }
    auto r = read_resource_set(r_text, options.limits);
    if (!add(r_diagnostics, r.diagnostics()))
        return finish({});
    MatchOptions match_options;
    match_options.read.limits = options.limits;
    match_options.read.dialect = dialect_of(settings);
    match_options.config = options.config;
    if (body.contains("queue"))
        match_options.queue = string_member(body, "queue");
    if (!blank(free_text)) {
        auto free = read_resource_set(free_text, options.limits);
        if (!add(free_diagnostics, free.diagnostics()))
            return finish({});
        match_options.free = std::move(free).value();
    }
    auto allocation = match_jobspec(jobspec_text, r.value(), match_options);
    if (!add(job_diagnostics, allocation.diagnostics()) || !allocation)
        return finish({});
    return finish(to_json_text(to_json_value(allocation.value()), settings.flag("pretty")));
}

json::array option_list(const std::vector<OptionSpec>& specs) {
    json::array out;
    for (const auto& o : specs) {
        json::array choices;
        for (const auto& c : o.choices)
            choices.emplace_back(c);
        out.push_back(json::object{{"name", o.name},
                                   {"cli", o.cli},
                                   {"label", o.label},
                                   {"kind", o.kind == OptionKind::flag     ? "flag"
                                            : o.kind == OptionKind::choice ? "choice"
                                                                           : "text"},
                                   {"choices", std::move(choices)}});
    }
    return out;
}

std::string_view grammar_name(const std::optional<Grammar>& grammar) {
    return grammar ? jobspec::grammar_name(*grammar) : std::string_view{};
}

HttpResponse list_languages() {
    json::array list;
    for (const auto& l : languages()) {
        json::object entry{{"name", l.name},
                           {"title", l.title},
                           {"cli", l.cli},
                           {"example", l.example},
                           {"options", option_list(l.options)},
                           {"grammar", nullptr},
                           {"graph", l.graph != nullptr || l.picture != nullptr},
                           {"match", !l.match_example.empty()}};
        if (l.grammar)
            entry["grammar"] = grammar_name(l.grammar);
        if (!l.match_example.empty())
            entry["match_example"] = l.match_example;
        list.push_back(std::move(entry));
    }
    return reply(json::object{{"languages", std::move(list)},
                              {"common_options", option_list(common_options())}});
}

HttpResponse explain(std::string_view name) {
    const auto code = code_from_name(name);
    if (!code) {
        std::vector<std::string_view> known;
        for (std::size_t i = 0; i < code_count; ++i)
            known.push_back(code_name(static_cast<Code>(i)));
        const auto near = closest(name, known);
        throw RequestError{404, "unknown code '" + std::string(name) + "'" +
                                    (near ? "; did you mean '" + std::string(*near) + "'?" : "")};
    }
    return reply(json::object{
        {"code", code_name(*code)},
        {"severity", default_severity(*code) == Severity::warning ? "warning" : "error"},
        {"explanation", explanation(*code)}});
}

using Endpoint = HttpResponse (*)(const HttpRequest&, const ApiOptions&);

struct Route {
    std::string_view path;
    Endpoint endpoint;
};

constexpr Route post_routes[] = {
    {"/api/v1/compile", compile}, {"/api/v1/tokens", tokens}, {"/api/v1/tree", tree},
    {"/api/v1/graph", graph},     {"/api/v1/match", match},
};

HttpResponse route(const HttpRequest& request, const ApiOptions& options) {
    const std::string_view path =
        std::string_view(request.target).substr(0, request.target.find('?'));
    for (const auto& r : post_routes) {
        if (path != r.path)
            continue;
        if (request.method != "POST")
            throw RequestError{405, std::string(path) + " takes POST", "POST"};
        return r.endpoint(request, options);
    }
    constexpr std::string_view explain_prefix = "/api/v1/explain/";
    if (path == "/api/v1/languages" || path.starts_with(explain_prefix)) {
        if (request.method != "GET")
            throw RequestError{405, std::string(path) + " takes GET", "GET"};
        if (path == "/api/v1/languages")
            return list_languages();
        return explain(path.substr(explain_prefix.size()));
    }
    throw RequestError{404, "no such API: " + std::string(path) + " (see docs/PLAYGROUND.md)"};
}

} // namespace

HttpResponse answer_api(const HttpRequest& request, const ApiOptions& options) {
    try {
        return route(request, options);
    } catch (const RequestError& e) {
        HttpResponse response = reply(e);
        if (!e.allow.empty())
            response.headers.emplace_back("Allow", std::string(e.allow));
        return response;
    } catch (const std::exception& e) {
        return reply(RequestError{500, std::string("internal error: ") + e.what()});
    }
}

} // namespace jobspec::serve
