#include "lower/submission_jobspec.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include <fmt/format.h>

#include <jobspec/text.hpp>

#include "lower/attribute_lowering.hpp"
#include "lower/jobspec_lowering.hpp"
#include "lower/query_lowering.hpp"
#include "lower/shape_lowering.hpp"
#include "lower/submission_environment.hpp"
#include "lower/submission_instance.hpp"
#include "lower/submission_layout.hpp"
#include "lower/submission_values.hpp"
#include "model/decoders.hpp"
#include "support/json_pointer.hpp"
#include "support/json_text.hpp"
#include "support/python_numbers.hpp"
#include "syntax/flux_uri.hpp"
#include "syntax/query_parser.hpp"
#include "syntax/shape_parser.hpp"
#include "syntax/submit_arguments.hpp"

namespace jobspec::lower {

namespace {

using syntax::DocNode;

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

/// -S KEY[=VAL]: the attribute path flux sets.
std::string attribute_path(const std::string& key) {
    if (!key.empty() && key[0] == '.')
        return "attributes" + key;
    if (key.rfind("attributes.", 0) == 0)
        return key;
    if (key.rfind("user.", 0) == 0 || key.rfind("system.", 0) == 0)
        return "attributes." + key;
    return "attributes.system." + key;
}

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

std::string joined(std::vector<std::string>::const_iterator from,
                   std::vector<std::string>::const_iterator to) {
    std::string out;
    for (auto it = from; it != to; ++it)
        out += (it == from ? "" : ".") + *it;
    return out;
}

/// `value` under the keys from..to, outermost first: what flux's dotted set makes.
DocNode nested(std::vector<std::string>::const_iterator from,
               std::vector<std::string>::const_iterator to, DocNode value) {
    for (auto it = to; it != from; --it) {
        DocNode object = DocNode::make(DocNode::Kind::mapping);
        object.members().push_back({*(it - 1), {}, std::move(value)});
        value = std::move(object);
    }
    return value;
}

/// The JSON pointer of these keys.
std::string pointer_of(std::initializer_list<std::string_view> keys) {
    support::JsonPointer p;
    for (const auto key : keys)
        p.push(key);
    return p.str();
}

/// A setting's value (-S/-o KEY=VALUE, or ^KEY=FILE), the text it was read from and the
/// key.
struct Setting {
    std::string key;
    DocNode value;
    std::shared_ptr<const SourceText> source;
};

class SubmissionLowering {
public:
    SubmissionLowering(const SubmitContext& context, Diagnostics& diagnostics)
        : ctx_(context), d_(diagnostics) {}

    Submission& result() { return out_; }

    bool run(const SubmitOptions& given) {
        SubmitOptions o = given;
        const auto cc = first_cc(o, d_);
        if (!cc || (*cc && !substitute_cc(o, **cc)))
            return false;
        const bool run_like = !slots_command(o);
        if (run_like && o.arguments.empty())
            return fail("job command and arguments are missing");
        if (o.resources_shape && o.resources_json)
            return fail("`--resources-shape` and `--resources-json` are mutually exclusive "
                        "arguments. Use only one.");
        const bool from_plugin = o.resources_shape || o.resources_json;
        if (o.time_limit && !support::python_float(*o.time_limit) &&
            !support::flux_duration(*o.time_limit))
            return fail("invalid Flux standard duration");
        auto layout = submission_layout(o, from_plugin, d_);
        if (!layout)
            return false;
        std::optional<double> duration;
        if (o.time_limit && !(duration = time_limit(*o.time_limit, d_)))
            return false;
        Instance instance;
        if (!run_like && !prepare_instance(o, ctx_, instance, d_))
            return false;

        Jobspec& js = out_.jobspec;
        js.dialect = ctx_.dialect;
        js.resources = std::move(layout->resources);
        if (ctx_.dialect == Dialect::fluxion && !from_plugin)
            check_fluxion_resources(js.resources, d_);
        Task task;
        task.command = run_like ? o.arguments : instance.command;
        task.slot = "task";
        task.count = layout->count;
        js.tasks.push_back(std::move(task));
        AttributeList& system = js.attributes.system_list();
        system.set("duration", duration ? Number(*duration) : Number(std::int64_t{0}));
        if (layout->per_resource && !shell("per-resource", std::move(*layout->per_resource)))
            return false;
        system.set("environment", Environment{});
        system.set("cwd", o.cwd.value_or(ctx_.cwd));
        std::optional<std::string> job_name = o.job_name;
        if (o.command == SubmitCommand::batch && !job_name)
            job_name = instance.job_name;
        if (job_name && !set_system_json(system, "job", "name", boost::json::string(*job_name), d_))
            return false;
        if (o.command != SubmitCommand::alloc && !standard_io(o))
            return false;
        if (o.unbuffered && !unbuffered())
            return false;
        if (o.queue)
            system.set("queue", *o.queue);
        if (o.bank)
            system.set("bank", *o.bank);
        if (!run_like && !instance_attributes(o, instance, ctx_, system, d_))
            return false;
        if (!environment(o) || !shell_options(o) || !dependencies(o) || !constraints(o) ||
            !settings(o) || !files(o) || !plugin_resources(o))
            return false;
        if (o.debug_emulate && !shell("stop-tasks-in-exec", 1))
            return false;
        if (*cc && o.cc && !o.cc->empty() &&
            !set_variable("FLUX_JOB_CC", DocNode::of(std::to_string(**cc)), nullptr))
            return false;
        non_finite_numbers();
        return !d_.has_errors();
    }

private:
    bool fail(std::string message) {
        d_.add(Code::submit_value, std::move(message));
        return false;
    }

    AttributeList& system() { return out_.jobspec.attributes.system_list(); }

    bool shell(const std::string& path, boost::json::value value) {
        return set_system_json(system(), "shell", "options." + path, std::move(value), d_);
    }

    /// Records that what is at `pointer` now comes from `source` (nothing: from no text).
    void from_source(std::string pointer, std::shared_ptr<const SourceText> source) {
        auto& sources = out_.sources;
        std::erase_if(sources, [&](const SubmissionSource& s) {
            return s.pointer == pointer || s.pointer.rfind(pointer + "/", 0) == 0;
        });
        if (source)
            sources.push_back({std::move(pointer), std::move(source)});
    }

    static std::shared_ptr<const SourceText> option_text(std::string_view option,
                                                         std::string_view text) {
        return std::make_shared<const SourceText>(SourceText{std::string(option),
                                                             std::string(text)});
    }

    /// Each value {cc} is substituted into (flux's own list, kept with the options'
    /// table), and the command.
    bool substitute_cc(SubmitOptions& o, std::uint64_t id) {
        const auto one = [&](std::string& s) {
            auto r = with_cc(s, id, d_);
            if (r)
                s = std::move(*r);
            return r.has_value();
        };
        return std::all_of(o.arguments.begin(), o.arguments.end(), one) &&
               syntax::for_each_cc_value(o, one);
    }

    bool standard_io(const SubmitOptions& o) {
        const bool batch = o.command == SubmitCommand::batch;
        if (o.input) {
            const bool idset = !batch && model::decode_idset(*o.input).has_value();
            if (idset && o.command == SubmitCommand::submit) {
                fail("per-task input not supported for submit");
                return false;
            }
            if (!idset && (!shell("input.stdin.type", "file") ||
                           !shell("input.stdin.path", boost::json::string(*o.input))))
                return false;
        }
        std::optional<std::string> output = o.output;
        if (!output && batch)
            output = "flux-{{id}}.out";
        for (const auto& [stream, file] :
             {std::pair{"stdout", output}, std::pair{"stderr", o.error}}) {
            if (!file || *file == "none" || *file == "kvs")
                continue;
            const std::string at = fmt::format("output.{}.", stream);
            if (!shell(at + "type", "file") || !shell(at + "path", boost::json::string(*file)) ||
                (o.label_io && !shell(at + "label", true)))
                return false;
        }
        return true;
    }

    bool unbuffered() {
        return shell("output.stdout.buffer.type", "none") &&
               shell("output.stderr.buffer.type", "none") && shell("output.batch-timeout", 0.05) &&
               shell("input.batch-timeout", 0.0);
    }

    /// The caller's environment (each variable that is not UTF-8 repaired) under the
    /// --env rules; values with "{{" go to the shell's env-expand.
    bool environment(const SubmitOptions& o) {
        SubmitContext ctx = ctx_;
        for (auto& [name, value] : ctx.environment) {
            if (find_invalid_utf8(name) == std::string_view::npos &&
                find_invalid_utf8(value) == std::string_view::npos)
                continue;
            name = to_valid_utf8(name);
            value = to_valid_utf8(value);
            out_.repaired.push_back(name);
        }
        boost::json::object env;
        if (!o.environment_none)
            for (const auto& [name, value] : ctx.environment)
                env[name] = value;
        boost::json::object expand;
        if (!apply_environment_rules(o.environment_rules, ctx, env, expand, d_))
            return false;
        Environment typed;
        typed.reserve(env.size());
        for (const auto& [name, value] : env)
            typed.push_back({std::string(name), std::string(value.as_string()), {}, {}});
        system().set("environment", std::move(typed));
        return expand.empty() || shell("env-expand", std::move(expand));
    }

    bool shell_options(const SubmitOptions& o) {
        auto rlimit = rlimit_options(o.rlimits, ctx_, d_);
        if (!rlimit || (!rlimit->empty() && !shell("rlimit", std::move(*rlimit))))
            return false;
        if (o.signal) {
            auto signal = signal_option(*o.signal, d_);
            if (d_.has_errors() || (signal && !shell("signal", std::move(*signal))))
                return false;
        }
        if (o.taskmap && !slots_command(o)) {
            auto uri = syntax::read_flux_uri(*o.taskmap, "taskmap", d_);
            if (!uri || !shell("taskmap", taskmap_object(*uri)))
                return false;
        }
        return true;
    }

    bool dependencies(const SubmitOptions& o) {
        std::vector<Dependency> out;
        for (const auto& [is_begin, text] : o.dependencies) {
            const std::string pointer =
                fmt::format("/attributes/system/dependencies/{}", out.size());
            if (is_begin) {
                const auto t = begin_time(text, ctx_.now, d_);
                if (!t)
                    return false;
                Dependency begin;
                begin.scheme = "begin-time";
                begin.value = support::python_float_repr(*t);
                out.push_back(std::move(begin));
                from_source(pointer, nullptr);
                continue;
            }
            auto uri = syntax::read_flux_uri(text, "dependency", d_);
            auto dependency = uri ? flux_dependency(std::move(*uri), d_) : std::nullopt;
            if (!dependency)
                return false;
            out.push_back(std::move(*dependency));
            from_source(pointer, option_text("--dependency", text));
        }
        if (!out.empty())
            system().set("dependencies", std::move(out));
        return true;
    }

    bool constraints(const SubmitOptions& o) {
        if (o.requires_terms.empty())
            return true;
        std::string query;
        for (const auto& term : o.requires_terms)
            query += (query.empty() ? "" : " ") + term;
        Diagnostics found(ctx_.limits.max_diagnostics);
        std::optional<Constraint> constraint;
        if (auto parsed = syntax::parse_query(query, ctx_.limits, found)) {
            QueryOptions options;
            options.limits = ctx_.limits;
            constraint = lower_query(parsed->ast, options, found);
        }
        found.sort_by_position();
        d_.append(found, option_text("--requires", query));
        if (!constraint || found.has_errors())
            return false;
        system().set("constraints", std::move(*constraint));
        from_source("/attributes/system/constraints", nullptr);
        return true;
    }

    /// -S/-o KEY[=VALUE] (^KEY=FILE: the JSON in FILE).
    std::optional<Setting> setting(const std::string& text, std::string_view option) {
        const auto eq = text.find('=');
        Setting s{text.substr(0, eq), DocNode::of(std::int64_t{1}), nullptr};
        if (eq == std::string::npos)
            return s;
        const std::string value = text.substr(eq + 1);
        if (s.key.empty() || s.key[0] != '^') {
            s.value = setting_value(value, ctx_.limits);
            s.source = option_text(fmt::format("--{}", option), value);
            return s;
        }
        s.key.erase(0, s.key.find_first_not_of('^'));
        const auto file = read_submission_file(ctx_, value, "", FileError::path, d_);
        if (!file)
            return std::nullopt;
        Diagnostics problems;
        syntax::JsonDialect python;
        python.last_duplicate_wins = true;
        auto parsed = syntax::read_json(file->content, ctx_.limits, problems, python);
        if (!parsed) {
            fail(fmt::format("--{}: {}: {}", option, value, problems.begin()->message));
            return std::nullopt;
        }
        s.value = std::move(*parsed);
        s.source = std::make_shared<const SourceText>(SourceText{value, file->content, true});
        return s;
    }

    bool settings(const SubmitOptions& o) {
        for (const auto& text : o.setopts) {
            auto s = setting(text, "setopt");
            if (!s || !shell(s->key, s->value.to_json()))
                return false;
        }
        for (const auto& text : o.setattrs) {
            auto s = setting(text, "setattr");
            if (!s)
                return false;
            const auto path = split_path(attribute_path(s->key));
            if (!set_attribute(path, std::move(*s)))
                return false;
        }
        for (const auto& [key, value] : o.setopt_values)
            if (!shell(key, value))
                return false;
        // Values an API gave: read into the tree once, as a text's are.
        for (const auto& [key, value] : o.setattr_values)
            if (!set_attribute(split_path(attribute_path(key)),
                               Setting{key, DocNode::from_json(value), nullptr}))
                return false;
        return true;
    }

    /// flux's dotted set of attributes.PATH, on the model: a typed system attribute is
    /// lowered by its type, a dictionary (job, shell, files, user) set inside, an
    /// environment variable set in its place.
    bool set_attribute(const std::vector<std::string>& parts, Setting s) {
        Jobspec& js = out_.jobspec;
        const std::string& scope = parts[1];
        if (parts.size() == 2 || (scope != "system" && scope != "user")) {
            const std::size_t errors = d_.error_count();
            lower_attributes_member(scope, nested(parts.begin() + 2, parts.end(), std::move(s.value)),
                                    js.attributes, js.dialect, d_);
            from_source(pointer_of({"attributes", scope}), s.source);
            return d_.error_count() == errors;
        }
        const std::string path = joined(parts.begin(), parts.end());
        if (scope == "user") {
            if (!js.attributes.user)
                js.attributes.user.emplace();
            return set_dotted(*js.attributes.user, joined(parts.begin() + 2, parts.end()),
                              s.value.to_json(), d_, "attributes.user.");
        }
        const std::string& key = parts[2];
        const auto rest = parts.begin() + 3;
        const std::string pointer = pointer_of({"attributes", "system", key});
        auto& entries = system().entries;
        auto existing = std::find_if(entries.begin(), entries.end(),
                                     [&](const Attribute& a) { return a.key == key; });
        if (rest == parts.end() || existing == entries.end()) {
            from_source(pointer, s.source);
            return set_lowered(key, nested(rest, parts.end(), std::move(s.value)), pointer);
        }
        if (auto* json = std::get_if<boost::json::value>(&existing->value)) {
            if (!json->is_object()) {
                not_an_object(path, s.value.to_json(), key, d_);
                return false;
            }
            // Only the part set is new: check it as that attribute's part.
            if (!check_part(key, nested(rest, parts.end(), s.value), pointer))
                return false;
            return set_dotted(json->get_object(), joined(rest, parts.end()), s.value.to_json(),
                              d_, fmt::format("attributes.system.{}.", key));
        }
        if (std::holds_alternative<Environment>(existing->value))
            return set_variable(*rest, nested(rest + 1, parts.end(), std::move(s.value)),
                                s.source);
        if (auto* c = std::get_if<Constraint>(&existing->value)) {
            // flux sets a key of the constraint's dictionary: {} holds none.
            const bool empty = c->op == "and" && c->children.empty();
            if (empty || (c->op == *rest && rest + 1 == parts.end())) {
                from_source(pointer, s.source);
                return set_lowered(key, nested(rest, parts.end(), std::move(s.value)), pointer);
            }
            if (c->op != *rest) {
                // A second operator beside the one there: lowered as the dictionary made.
                DocNode both = DocNode::make(DocNode::Kind::mapping);
                both.members().push_back({c->op, {}, DocNode::make(DocNode::Kind::sequence)});
                both.members().push_back(
                    {*rest, {}, nested(rest + 1, parts.end(), std::move(s.value))});
                return set_lowered(key, both, pointer);
            }
            not_an_object(path, s.value.to_json(), *rest, d_);
            return false;
        }
        not_an_object(path, s.value.to_json(), key, d_);
        return false;
    }

    /// System attribute `key` set to `value`, lowered by its type.
    bool set_lowered(const std::string& key, const DocNode& value, const std::string& pointer) {
        support::JsonPointer at(pointer);
        auto lowered = lower_attribute(key, value, AttributeScope::system, at, d_,
                                       out_.jobspec.dialect);
        if (!lowered)
            return false;
        system().set(key, std::move(*lowered));
        for (auto& a : system().entries)
            if (a.key == key)
                a.value_range = value.range;
        return true;
    }

    bool check_part(const std::string& key, const DocNode& part, const std::string& pointer) {
        if (key != "job" && key != "shell" && key != "files")
            return true;
        support::JsonPointer at(pointer);
        return lower_attribute(key, part, AttributeScope::system, at, d_).has_value();
    }

    /// environment.NAME, in its place (or at the end).
    bool set_variable(const std::string& name, DocNode value,
                      const std::shared_ptr<const SourceText>& source) {
        from_source(pointer_of({"attributes", "system", "environment", name}), source);
        DocNode one = DocNode::make(DocNode::Kind::mapping);
        one.members().push_back({name, {}, std::move(value)});
        support::JsonPointer at(pointer_of({"attributes", "system", "environment"}));
        auto lowered = lower_attribute("environment", one, AttributeScope::system, at, d_);
        if (!lowered)
            return false;
        for (auto& a : system().entries) {
            auto* e = std::get_if<Environment>(&a.value);
            if (a.key != "environment" || e == nullptr)
                continue;
            auto variable = std::move(std::get<Environment>(*lowered).front());
            auto same = std::find_if(e->begin(), e->end(), [&](const EnvironmentVariable& v) {
                return v.name == name;
            });
            if (same != e->end())
                *same = std::move(variable);
            else
                e->push_back(std::move(variable));
            return true;
        }
        not_an_object("attributes.system.environment." + name, one.to_json(), "environment", d_);
        return false;
    }

    bool files(const SubmitOptions& o) {
        for (const auto& text : o.add_files) {
            auto file = add_file_entry(text, ctx_, d_);
            if (!file)
                return false;
            auto* files = system_json(system(), "files", file->first, file->second, d_);
            if (files == nullptr)
                return false;
            files->get_object()[file->first] = std::move(file->second);
        }
        return true;
    }

    bool plugin_resources(const SubmitOptions& o) {
        Jobspec& js = out_.jobspec;
        if (o.resources_shape) {
            Diagnostics found(ctx_.limits.max_diagnostics);
            auto parsed = syntax::parse_shape(*o.resources_shape, ctx_.limits, found);
            if (parsed && !found.has_errors()) {
                js.resources = lower_shape(parsed->ast, "task", found);
                if (ctx_.dialect == Dialect::fluxion && !found.has_errors())
                    check_fluxion_resources(js.resources, found);
            }
            found.sort_by_position();
            d_.append(found, option_text("--resources-shape", *o.resources_shape));
            out_.resources_from = SubmissionResources::shape;
            from_source("/resources", option_text("--resources-shape", *o.resources_shape));
            return !found.has_errors();
        }
        if (!o.resources_json)
            return true;
        const auto file = read_submission_file(ctx_, *o.resources_json, "", FileError::path, d_);
        if (!file)
            return false;
        Diagnostics problems;
        syntax::JsonDialect python;
        python.last_duplicate_wins = true;
        auto parsed = syntax::read_json(file->content, ctx_.limits, problems, python);
        if (!parsed) {
            d_.add(Code::submit_file, fmt::format("--resources-json: cannot read '{}' as JSON: {}",
                                                  *o.resources_json, problems.begin()->message));
            return false;
        }
        const DocNode* resources = &*parsed;
        if (parsed->is_mapping()) {
            const auto* r = parsed->find("resources");
            if (r == nullptr)
                return fail("'resources'");
            resources = &r->value;
        }
        js.resources = lower_resources(*resources, js.dialect, d_);
        out_.resources_as_written = resources->to_json();
        out_.resources_from = SubmissionResources::file;
        from_source("/resources", std::make_shared<const SourceText>(
                                      SourceText{*o.resources_json, file->content, true}));
        return !d_.has_errors();
    }

    /// submit.value for NaN and infinities, which flux prints and JSON cannot hold.
    void non_finite_numbers() {
        support::JsonPointer at;
        const auto json = [&](auto&& self, const boost::json::value& v) -> void {
            if (v.is_double() && !std::isfinite(v.get_double())) {
                d_.add(Code::submit_value,
                       fmt::format("'{}' is {}, which JSON cannot hold", to_valid_utf8(at.str()),
                                   support::python_float_repr(v.get_double())),
                       Location{{}, to_valid_utf8(at.str())});
            } else if (v.is_array()) {
                for (std::size_t i = 0; i < v.get_array().size(); ++i) {
                    support::PointerScope in(at, i);
                    self(self, v.get_array()[i]);
                }
            } else if (v.is_object()) {
                for (const auto& [key, e] : v.get_object()) {
                    support::PointerScope in(at, key);
                    self(self, e);
                }
            }
        };
        const Attributes& attributes = out_.jobspec.attributes;
        support::PointerScope in(at, "attributes");
        if (attributes.system) {
            support::PointerScope system_at(at, "system");
            for (const auto& a : attributes.system->entries) {
                support::PointerScope key_at(at, a.key);
                if (const auto* v = std::get_if<boost::json::value>(&a.value))
                    json(json, *v);
                else if (const auto* n = std::get_if<Number>(&a.value))
                    json(json, boost::json::value(n->to_double()));
                else if (const auto* deps = std::get_if<std::vector<Dependency>>(&a.value))
                    for (std::size_t i = 0; i < deps->size(); ++i)
                        for (const auto& option : (*deps)[i].options) {
                            support::PointerScope option_at(at, i, option.key);
                            json(json, option.value);
                        }
            }
        }
        if (attributes.user) {
            support::PointerScope user_at(at, "user");
            json(json, *attributes.user);
        }
    }

    const SubmitContext& ctx_;
    Diagnostics& d_;
    Submission out_;
};

} // namespace

std::optional<Submission> lower_submission(const SubmitOptions& options,
                                           const SubmitContext& context,
                                           Diagnostics& diagnostics) {
    Diagnostics found(context.limits.max_diagnostics);
    SubmissionLowering lowering(context, found);
    const bool built = lowering.run(options);
    attach_sources(lowering.result().sources, found, diagnostics);
    if (!built)
        return std::nullopt;
    return std::move(lowering.result());
}

void attach_sources(const std::vector<SubmissionSource>& sources, const Diagnostics& found,
                    Diagnostics& into) {
    for (Diagnostic d : found) {
        if (d.location.range.known() && !d.location.source) {
            const std::string& at = d.location.pointer;
            for (auto s = sources.rbegin(); s != sources.rend(); ++s)
                if (at == s->pointer || at.rfind(s->pointer + "/", 0) == 0) {
                    d.location.source = s->source;
                    break;
                }
            // A range into no text the caller has would put a caret in the wrong place.
            if (!d.location.source)
                d.location.range = {};
        }
        into.add(std::move(d));
    }
}

} // namespace jobspec::lower
