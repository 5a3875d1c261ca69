// compile_submission: flux run/submit/batch/alloc options -> the jobspec --dry-run prints.
#include <jobspec/submit.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

#include <boost/json/value_from.hpp>
#include <fmt/format.h>

#include <jobspec/constraint.hpp>
#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/input.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/text.hpp>

#include "api/bounded_read.hpp"
#include "lower/jobspec_lowering.hpp"
#include "lower/submission_environment.hpp"
#include "lower/submission_instance.hpp"
#include "lower/submission_layout.hpp"
#include "lower/submission_values.hpp"
#include "model/decoders.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/size_limits.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "support/python_numbers.hpp"
#include "syntax/directives.hpp"
#include "syntax/document_tree.hpp"
#include "syntax/submit_arguments.hpp"

extern char** environ;

namespace jobspec {

namespace {

boost::json::value text(std::string_view s) {
    return boost::json::string(s);
}

bool slots_command(const SubmitOptions& o) {
    return o.command == SubmitCommand::batch || o.command == SubmitCommand::alloc;
}

/// -t: a bare float is minutes, else a Flux Standard Duration.
std::optional<double> time_limit(const std::string& text, Diagnostics& d) {
    std::optional<double> seconds;
    if (auto minutes = support::python_float(text))
        seconds = *minutes * 60;
    else
        seconds = support::flux_duration(text);
    if (!seconds) {
        d.add(Code::submit_value, "invalid Flux standard duration");
        return std::nullopt;
    }
    if (*seconds < 0) {
        d.add(Code::submit_value, "duration must not be negative");
        return std::nullopt;
    }
    if (!std::isfinite(*seconds)) {
        d.add(Code::submit_value, "duration must be a normal, finite value");
        return std::nullopt;
    }
    return seconds;
}

/// The jobspec under construction, with flux's "set a dotted path" on it.
class Builder {
public:
    explicit Builder(Diagnostics& d) : diags_(d) {}

    bool set(const std::string& path, boost::json::value value) {
        return lower::set_dotted(js_, path, std::move(value), diags_);
    }
    bool system(const std::string& path, boost::json::value value) {
        return set("attributes.system." + path, std::move(value));
    }
    bool shell(const std::string& path, boost::json::value value) {
        return system("shell.options." + path, std::move(value));
    }
    boost::json::object& json() { return js_; }

private:
    boost::json::object js_;
    Diagnostics& diags_;
};

/// Adds what compiling `value`, the value of `option`, found, pointing into that value: a
/// renderer shows the option and its value with a caret under the problem.
void add_from_option(Diagnostics& into, const Diagnostics& found, std::string_view option,
                     std::string_view value) {
    into.append(found, std::make_shared<const SourceText>(
                           SourceText{std::string(option), std::string(value)}));
}

/// -S KEY[=VAL] and -o KEY[=VAL]: the attribute path and its value (-S ^KEY=FILE: the
/// JSON in FILE).
std::optional<std::pair<std::string, boost::json::value>> setting(const std::string& text,
                                                                  std::string_view option,
                                                                  const SubmitContext& ctx,
                                                                  Diagnostics& d) {
    const auto eq = text.find('=');
    std::string key = text.substr(0, eq);
    if (eq == std::string::npos)
        return std::make_pair(key, boost::json::value(1));
    const std::string value = text.substr(eq + 1);
    if (!key.empty() && key[0] == '^') {
        key.erase(0, key.find_first_not_of('^'));
        const auto file = lower::read_submission_file(ctx, value, "", lower::FileError::path, d);
        if (!file)
            return std::nullopt;
        Diagnostics problems;
        auto parsed = lower::json_value(file->content, ctx.limits, problems);
        if (!parsed) {
            d.add(Code::submit_value,
                  fmt::format("--{}: {}: {}", option, value, problems.begin()->message));
            return std::nullopt;
        }
        return std::make_pair(key, std::move(*parsed));
    }
    return std::make_pair(key, lower::setting_value(value, ctx.limits));
}

std::string attribute_path(const std::string& key) {
    if (!key.empty() && key[0] == '.')
        return "attributes" + key;
    if (key.rfind("attributes.", 0) == 0)
        return key;
    if (key.rfind("user.", 0) == 0 || key.rfind("system.", 0) == 0)
        return "attributes." + key;
    return "attributes.system." + key;
}

bool standard_io(const SubmitOptions& o, Builder& b, Diagnostics& d) {
    const bool batch = o.command == SubmitCommand::batch;
    if (o.input) {
        const bool idset = !batch && model::decode_idset(*o.input).has_value();
        if (idset && o.command == SubmitCommand::submit) {
            d.add(Code::submit_value, "per-task input not supported for submit");
            return false;
        }
        if (!idset &&
            (!b.shell("input.stdin.type", "file") || !b.shell("input.stdin.path", text(*o.input))))
            return false;
    }
    std::optional<std::string> output = o.output;
    if (!output && batch)
        output = "flux-{{id}}.out";
    for (const auto& [stream, file] : {std::pair{"stdout", output}, std::pair{"stderr", o.error}}) {
        if (!file || *file == "none" || *file == "kvs")
            continue;
        const std::string at = fmt::format("output.{}.", stream);
        if (!b.shell(at + "type", "file") || !b.shell(at + "path", text(*file)) ||
            (o.label_io && !b.shell(at + "label", true)))
            return false;
    }
    return true;
}

bool unbuffered(Builder& b) {
    return b.shell("output.stdout.buffer.type", "none") &&
           b.shell("output.stderr.buffer.type", "none") && b.shell("output.batch-timeout", 0.05) &&
           b.shell("input.batch-timeout", 0.0);
}

/// Steps 13 to 24 of flux's jobspec construction: environment, limits, signal, taskmap,
/// dependencies, constraints, -o, -S, files, resources plugins.
bool common_tail(const SubmitOptions& o, const SubmitContext& ctx, Builder& b,
                 std::optional<double> duration, Diagnostics& d) {
    boost::json::object env;
    if (!o.environment_none)
        for (const auto& [name, value] : ctx.environment)
            env[name] = value;
    boost::json::object expand;
    if (!lower::apply_environment_rules(o.environment_rules, ctx, env, expand, d))
        return false;
    b.system("environment", std::move(env));
    if (!expand.empty())
        b.shell("env-expand", std::move(expand));
    auto rlimit = lower::rlimit_options(o.rlimits, ctx, d);
    if (!rlimit)
        return false;
    if (!rlimit->empty())
        b.shell("rlimit", std::move(*rlimit));
    if (o.signal) {
        auto signal = lower::signal_option(*o.signal, d);
        if (d.has_errors())
            return false;
        if (signal)
            b.shell("signal", std::move(*signal));
    }
    if (o.taskmap && !slots_command(o)) {
        auto taskmap = lower::submission_uri(*o.taskmap, "taskmap", d);
        if (!taskmap)
            return false;
        b.shell("taskmap", std::move(*taskmap));
    }
    boost::json::array dependencies;
    for (const auto& [is_begin, text] : o.dependencies) {
        if (is_begin) {
            const auto t = lower::begin_time(text, ctx.now, d);
            if (!t)
                return false;
            boost::json::object dep;
            dep["scheme"] = "begin-time";
            dep["value"] = support::python_float_repr(*t);
            dependencies.push_back(std::move(dep));
            continue;
        }
        auto dep = lower::submission_uri(text, "dependency", d);
        if (!dep)
            return false;
        dependencies.push_back(std::move(*dep));
    }
    if (!dependencies.empty())
        b.system("dependencies", std::move(dependencies));
    if (!o.requires_terms.empty()) {
        std::string query;
        for (const auto& term : o.requires_terms)
            query += (query.empty() ? "" : " ") + term;
        QueryOptions qo;
        qo.limits = ctx.limits;
        auto constraint = parse_constraint_query(query, qo);
        if (!constraint.ok()) {
            add_from_option(d, constraint.diagnostics(), "--requires", query);
            return false;
        }
        b.system("constraints", to_json_value(constraint.value()));
    }
    for (const auto& text : o.setopts) {
        auto s = setting(text, "setopt", ctx, d);
        if (!s || !b.shell(s->first, std::move(s->second)))
            return false;
    }
    if (duration)
        b.system("duration", *duration);
    for (const auto& text : o.setattrs) {
        auto s = setting(text, "setattr", ctx, d);
        if (!s || !b.set(attribute_path(s->first), std::move(s->second)))
            return false;
    }
    for (const auto& text : o.add_files) {
        auto file = lower::add_file_entry(text, ctx, d);
        if (!file)
            return false;
        boost::json::value* at = &b.json()["attributes"];
        for (const char* key : {"system", "files"}) {
            if (!at->is_object()) {
                d.add(Code::submit_value, "--add-file: attributes.system is not an object");
                return false;
            }
            at = &at->get_object()[key];
            if (at->is_null())
                *at = boost::json::object();
        }
        if (!at->is_object()) {
            d.add(Code::submit_value, "--add-file: attributes.system.files is not an object");
            return false;
        }
        at->get_object()[file->first] = std::move(file->second);
    }
    if (o.resources_shape) {
        ShapeOptions so;
        so.default_label = "task";
        so.limits = ctx.limits;
        auto shape = compile_shape(*o.resources_shape, so);
        if (!shape.ok()) {
            add_from_option(d, shape.diagnostics(), "--resources-shape", *o.resources_shape);
            return false;
        }
        b.json()["resources"] = to_json_value(shape.value());
    } else if (o.resources_json) {
        const auto file =
            lower::read_submission_file(ctx, *o.resources_json, "", lower::FileError::path, d);
        if (!file)
            return false;
        Diagnostics problems;
        auto parsed = lower::json_value(file->content, ctx.limits, problems);
        if (!parsed) {
            d.add(Code::submit_file, fmt::format("--resources-json: cannot read '{}' as JSON: {}",
                                                 *o.resources_json, problems.begin()->message));
            return false;
        }
        boost::json::value value = std::move(*parsed);
        if (value.is_object()) {
            const auto* r = value.get_object().if_contains("resources");
            if (r == nullptr) {
                d.add(Code::submit_value, "'resources'");
                return false;
            }
            value = *r;
        }
        b.json()["resources"] = std::move(value);
    }
    if (o.debug_emulate)
        b.shell("stop-tasks-in-exec", 1);
    return !d.has_errors();
}

/// --cc/--bcc: "{cc}" in the command and the option values becomes the first id.
std::optional<std::string> with_cc(const std::string& text, std::uint64_t id, Diagnostics& d) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "{{") == 0 || text.compare(i, 2, "}}") == 0) {
            out += text.substr(i, 2);
            ++i;
        } else if (text[i] == '{') {
            const auto close = text.find('}', i);
            const std::string field =
                close == std::string::npos ? "" : text.substr(i + 1, close - i - 1);
            if (field == "cc") {
                out += std::to_string(id);
            } else if (field.rfind("cc:", 0) == 0 && support::python_int(field.substr(3))) {
                const std::string spec = field.substr(3);
                const bool zero = spec[0] == '0';
                const auto width = static_cast<std::size_t>(*support::python_int(spec));
                std::string digits = std::to_string(id);
                if (digits.size() < width)
                    digits.insert(0, width - digits.size(), zero ? '0' : ' ');
                out += digits;
            } else {
                d.add(Code::submit_value, fmt::format("Invalid replacement string in '{}'", text));
                return std::nullopt;
            }
            i = close;
        } else if (text[i] == '}') {
            d.add(Code::submit_value, fmt::format("Invalid replacement string in '{}'", text));
            return std::nullopt;
        } else {
            out += text[i];
        }
    }
    return out;
}

bool substitute_cc(SubmitOptions& o, std::uint64_t id, Diagnostics& d) {
    const auto one = [&](std::string& s) {
        auto r = with_cc(s, id, d);
        if (r)
            s = std::move(*r);
        return r.has_value();
    };
    const auto maybe = [&](std::optional<std::string>& s) { return !s || one(s.value()); };
    const auto many = [&](std::vector<std::string>& v) {
        for (auto& s : v)
            if (!one(s))
                return false;
        return true;
    };
    bool ok = many(o.arguments) && maybe(o.queue) && maybe(o.bank) && maybe(o.ntasks) &&
              maybe(o.nodes) && maybe(o.cores_per_task) && maybe(o.gpus_per_task) &&
              maybe(o.cores) && maybe(o.tasks_per_node) && maybe(o.tasks_per_core) &&
              maybe(o.gpus_per_node) && maybe(o.time_limit) && many(o.environment_rules) &&
              maybe(o.urgency) && many(o.setopts) && many(o.setattrs) && maybe(o.job_name) &&
              maybe(o.input) && maybe(o.output) && maybe(o.error) && maybe(o.taskmap) &&
              many(o.requires_terms) && maybe(o.cwd) && many(o.flags) && maybe(o.signal);
    for (auto& [is_begin, text] : o.dependencies)
        ok = ok && (is_begin || one(text));
    return ok;
}

/// The first id of --cc/--bcc, if any (an empty idset is none).
std::optional<std::optional<std::uint64_t>> first_cc(const SubmitOptions& o, Diagnostics& d) {
    if (o.cc && o.bcc && !o.cc->empty() && !o.bcc->empty()) {
        d.add(Code::submit_value, "specify only one of --cc or --bcc");
        return std::nullopt;
    }
    const auto& text = o.cc && !o.cc->empty() ? o.cc : o.bcc;
    if (!text || text->empty())
        return std::optional<std::uint64_t>();
    auto ids = model::decode_idset(*text);
    if (!ids || ids->ranges().empty()) {
        d.add(Code::submit_value, fmt::format("IDset(): Invalid argument: {}", *text));
        return std::nullopt;
    }
    return std::optional<std::uint64_t>(ids->ranges().front().first);
}

std::optional<boost::json::object> build(const SubmitOptions& given, const SubmitContext& ctx,
                                         bool& from_plugin, Diagnostics& d) {
    SubmitOptions o = given;
    const auto cc = first_cc(o, d);
    if (!cc)
        return std::nullopt;
    if (*cc && !substitute_cc(o, **cc, d))
        return std::nullopt;
    const bool run_like = !slots_command(o);
    if (run_like && o.arguments.empty()) {
        d.add(Code::submit_value, "job command and arguments are missing");
        return std::nullopt;
    }
    if (o.resources_shape && o.resources_json) {
        d.add(Code::submit_value, "`--resources-shape` and `--resources-json` are mutually "
                                  "exclusive arguments. Use only one.");
        return std::nullopt;
    }
    from_plugin = o.resources_shape || o.resources_json;
    std::optional<double> duration;
    if (o.time_limit && !support::python_float(*o.time_limit) &&
        !support::flux_duration(*o.time_limit)) {
        d.add(Code::submit_value, "invalid Flux standard duration");
        return std::nullopt;
    }
    auto layout = lower::submission_layout(o, from_plugin, d);
    if (!layout)
        return std::nullopt;
    if (o.time_limit && !(duration = time_limit(*o.time_limit, d)))
        return std::nullopt;
    lower::Instance instance;
    if (!run_like && !lower::prepare_instance(o, ctx, instance, d))
        return std::nullopt;

    Builder b(d);
    boost::json::object task;
    boost::json::array command;
    for (const auto& word : run_like ? o.arguments : instance.command)
        command.emplace_back(boost::json::string(word));
    task["command"] = std::move(command);
    task["slot"] = "task";
    task["count"] = std::move(layout->count);
    b.json()["resources"] = std::move(layout->resources);
    b.json()["tasks"] = boost::json::array{std::move(task)};
    b.system("duration", 0);
    if (layout->per_resource)
        b.shell("per-resource", std::move(*layout->per_resource));
    if (duration)
        b.system("duration", *duration);
    b.system("environment", boost::json::object());
    b.system("cwd", text(o.cwd.value_or(ctx.cwd)));
    const bool alloc = o.command == SubmitCommand::alloc;
    std::optional<std::string> job_name = o.job_name;
    if (o.command == SubmitCommand::batch && !job_name)
        job_name = instance.job_name;
    if (job_name)
        b.system("job.name", text(*job_name));
    if (!alloc && !standard_io(o, b, d))
        return std::nullopt;
    if (o.unbuffered)
        unbuffered(b);
    if (o.queue)
        b.system("queue", text(*o.queue));
    if (o.bank)
        b.system("bank", text(*o.bank));
    if (!run_like && !lower::instance_attributes(o, instance, ctx, b.json(), d))
        return std::nullopt;
    if (!common_tail(o, ctx, b, duration, d))
        return std::nullopt;
    if (*cc && o.cc && !o.cc->empty())
        b.system("environment.FLUX_JOB_CC", text(std::to_string(**cc)));
    b.json()["version"] = 1;
    return std::move(b.json());
}

/// submit.value for NaN and infinities, which flux prints and JSON cannot hold: the
/// output must be JSON.
void check_numbers(const boost::json::value& v, const std::string& pointer, Diagnostics& d) {
    const auto escaped = [](std::string_view key) {
        std::string out;
        for (char c : key)
            out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
        return out;
    };
    if (v.is_double() && !std::isfinite(v.get_double())) {
        d.add(Code::submit_value,
              fmt::format("'{}' is {}, which JSON cannot hold", to_valid_utf8(pointer),
                          support::python_float_repr(v.get_double())),
              Location{{}, to_valid_utf8(pointer)});
    } else if (v.is_array()) {
        std::size_t i = 0;
        for (const auto& e : v.get_array())
            check_numbers(e, pointer + "/" + std::to_string(i++), d);
    } else if (v.is_object()) {
        for (const auto& [key, e] : v.get_object())
            check_numbers(e, pointer + "/" + escaped(key), d);
    }
}

/// The caller's environment with each variable that is not UTF-8 repaired (bytes that
/// are not become U+FFFD); the names repaired go to `repaired`.
SubmitContext repaired_context(const SubmitContext& given, std::vector<std::string>& repaired) {
    SubmitContext ctx = given;
    for (auto& [name, value] : ctx.environment) {
        if (find_invalid_utf8(name) == std::string_view::npos &&
            find_invalid_utf8(value) == std::string_view::npos)
            continue;
        name = to_valid_utf8(name);
        value = to_valid_utf8(value);
        repaired.push_back(name);
    }
    return ctx;
}

} // namespace

std::optional<SubmitCommand> submit_command_named(std::string_view name) {
    if (name == "run")
        return SubmitCommand::run;
    if (name == "submit")
        return SubmitCommand::submit;
    if (name == "batch")
        return SubmitCommand::batch;
    if (name == "alloc")
        return SubmitCommand::alloc;
    return std::nullopt;
}

Result<SubmitOptions> parse_submit_arguments(const std::vector<std::string>& words,
                                             SubmitOptions options) {
    Diagnostics d;
    syntax::read_submit_arguments(words, options, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    return {std::move(options), std::move(d)};
}

std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                               SubmitCommand command) {
    return syntax::submit_option_span(words, at, command);
}

std::vector<std::string> submit_option_usages(SubmitCommand command) {
    return syntax::submit_option_usages(command);
}

Result<std::vector<Directive>> parse_directives(std::string_view script) {
    Diagnostics d;
    auto directives = syntax::read_directives(script, d);
    if (d.has_errors())
        return Result<std::vector<Directive>>(std::move(d));
    return {std::move(directives), std::move(d)};
}

Result<SubmitOptions> parse_batch_arguments(std::string script,
                                            const std::vector<std::string>& words,
                                            SubmitOptions start) {
    Diagnostics d;
    const auto directives = syntax::read_directives(script, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    SubmitOptions merged = std::move(start);
    for (const auto& directive : directives) {
        Diagnostics given;
        std::vector<std::string> arguments = std::move(merged.arguments);
        syntax::read_submit_arguments(directive.arguments, merged, given);
        merged.arguments = std::move(arguments);
        for (const auto& problem : given) {
            if (problem.severity != Severity::error)
                continue;
            const std::size_t end = std::min(script.find('\n', directive.offset), script.size());
            d.add(Code::directive_option, problem.message,
                  Location{SourceRange{static_cast<std::uint32_t>(directive.offset),
                                       static_cast<std::uint32_t>(end)},
                           {}},
                  problem.help);
        }
        if (d.has_errors())
            return Result<SubmitOptions>(std::move(d));
    }
    syntax::read_submit_arguments(words, merged, d);
    if (d.has_errors())
        return Result<SubmitOptions>(std::move(d));
    merged.script = std::move(script);
    return {std::move(merged), std::move(d)};
}

Result<std::string> prepare_batch_script(std::string_view text, std::string_view name) {
    if (find_invalid_utf8(text) != std::string_view::npos) {
        Diagnostics d;
        d.add(Code::submit_file,
              fmt::format("{} does not appear to be a script, or failed to encode as utf-8", name));
        return Result<std::string>(std::move(d));
    }
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r') {
            out += text[i];
            continue;
        }
        out += '\n';
        if (i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
    }
    return out;
}

Result<SubmitOptions> read_submission(const std::vector<std::string>& words,
                                      const SubmitOptions& start, const SubmitContext& context,
                                      std::optional<std::string_view> script) {
    auto options = parse_submit_arguments(words, start);
    if (!options.ok() || start.command != SubmitCommand::batch ||
        (options.value().wrap && !options.value().arguments.empty()))
        return options;
    const auto& arguments = options.value().arguments;
    const std::string path = arguments.empty() ? "-" : arguments.front();
    const std::string name(input_name(path));
    Diagnostics d;
    std::optional<std::string> text;
    if (script) {
        text = std::string(*script);
    } else if (auto file = lower::read_submission_file(
                   context, path, fmt::format("cannot read the script '{}': ", name),
                   lower::FileError::plain, d)) {
        text = std::move(file->content);
    }
    if (!text)
        return Result<SubmitOptions>(std::move(d));
    auto prepared = prepare_batch_script(*text, name);
    if (!prepared.ok())
        return Result<SubmitOptions>(std::move(prepared).diagnostics());
    auto batch = parse_batch_arguments(prepared.value(), words, start);
    // Problems in the script show its line and column, whoever renders them.
    const auto source =
        std::make_shared<const SourceText>(SourceText{name, std::move(prepared).value(), true});
    Diagnostics found;
    found.append(batch.diagnostics(), source);
    if (!batch.ok())
        return Result<SubmitOptions>(std::move(found));
    return {std::move(batch).value(), std::move(found)};
}

Result<boost::json::value> compile_submission(const SubmitOptions& options,
                                              const SubmitContext& context) {
    Diagnostics d(context.limits.max_diagnostics);
    bool from_plugin = false;
    std::vector<std::string> repaired;
    auto js = build(options, repaired_context(context, repaired), from_plugin, d);
    if (!js || d.has_errors())
        return Result<boost::json::value>(std::move(d));
    const boost::json::value* env = nullptr;
    if (const auto* a = js->if_contains("attributes"); a != nullptr && a->is_object())
        if (const auto* s = a->get_object().if_contains("system"); s != nullptr && s->is_object())
            env = s->get_object().if_contains("environment");
    for (const auto& name : repaired)
        if (env != nullptr && env->is_object() && env->get_object().contains(name))
            d.add(Code::jobspec_environment_encoding,
                  fmt::format("environment variable '{}' is not valid UTF-8; each byte that is "
                              "not was replaced by U+FFFD",
                              name),
                  {}, "set it to UTF-8 text before running jobspec");
    // Whatever is printed must pass validate: the jobspec is lowered once into the model
    // (from the value, never from text) and each pass runs once on it.
    check_numbers(*js, "", d);
    const Jobspec model = lower::lower_jobspec(syntax::DocNode::from_json(*js), context.dialect, d);
    sema::check_text_encoding(model, d);
    if (!d.has_errors()) {
        sema::check_canonical(model, d);
        sema::check_sizes(model, context.limits, d);
        if (!from_plugin && !d.has_errors())
            sema::check_v1(model, d);
    }
    if (d.has_errors())
        return Result<boost::json::value>(std::move(d));
    return {boost::json::value(std::move(*js)), std::move(d)};
}

SubmitContext current_submit_context() {
    SubmitContext ctx;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string_view entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string_view::npos)
            ctx.environment.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    }
    std::error_code ec;
    ctx.cwd = std::filesystem::current_path(ec).string();
    if (const char* home = std::getenv("HOME"))
        ctx.home = home;
    static const std::pair<const char*, int> limits[] = {
        {"cpu", RLIMIT_CPU},         {"fsize", RLIMIT_FSIZE},
        {"data", RLIMIT_DATA},       {"stack", RLIMIT_STACK},
        {"core", RLIMIT_CORE},       {"nofile", RLIMIT_NOFILE},
        {"ofile", RLIMIT_NOFILE},    {"as", RLIMIT_AS},
        {"rss", RLIMIT_RSS},         {"nproc", RLIMIT_NPROC},
        {"memlock", RLIMIT_MEMLOCK}, {"msgqueue", RLIMIT_MSGQUEUE},
        {"nice", RLIMIT_NICE},       {"rtprio", RLIMIT_RTPRIO},
        {"rttime", RLIMIT_RTTIME},   {"sigpending", RLIMIT_SIGPENDING},
    };
    for (const auto& [name, resource] : limits) {
        rlimit l{};
        if (getrlimit(resource, &l) != 0)
            continue;
        ctx.rlimits.emplace_back(name, l.rlim_cur == RLIM_INFINITY
                                           ? std::int64_t{-1}
                                           : static_cast<std::int64_t>(l.rlim_cur));
    }
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    ctx.now =
        static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(now).count()) /
        1e6;
    ctx.interactive = isatty(0) != 0;
    ctx.read_file = [](std::string_view path, std::size_t max_bytes) {
        api::BoundedRead read = api::read_bounded(path, max_bytes);
        return SubmitFile{std::move(read.text), read.mode, read.error, read.too_large};
    };
    return ctx;
}

std::optional<double> parse_flux_duration(std::string_view text) {
    const auto seconds = support::flux_duration(text);
    if (!seconds || std::isnan(*seconds) || *seconds < 0)
        return std::nullopt;
    return seconds;
}

} // namespace jobspec
