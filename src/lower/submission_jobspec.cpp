#include "lower/submission_jobspec.hpp"

#include <cmath>

#include <fmt/format.h>

#include <jobspec/text.hpp>

#include "lower/jobspec_lowering.hpp"
#include "lower/query_lowering.hpp"
#include "lower/shape_lowering.hpp"
#include "lower/submission_cc.hpp"
#include "lower/submission_environment.hpp"
#include "lower/submission_instance.hpp"
#include "lower/submission_layout.hpp"
#include "lower/submission_settings.hpp"
#include "lower/submission_values.hpp"
#include "model/decoders.hpp"
#include "support/json_pointer.hpp"
#include "support/python_numbers.hpp"
#include "syntax/flux_uri.hpp"
#include "syntax/query_parser.hpp"
#include "syntax/shape_parser.hpp"

namespace jobspec::lower {

namespace {

using syntax::DocNode;

bool slots_command(const SubmitOptions& o) {
    return o.command == SubmitCommand::batch || o.command == SubmitCommand::alloc;
}

/// -t in seconds: a bare float is minutes, else a Flux Standard Duration; nothing,
/// with submit.value, when it is neither (flux's parser refuses it at once).
std::optional<double> time_limit(const std::string& text, Diagnostics& d) {
    if (auto minutes = support::python_float(text))
        return *minutes * 60;
    if (auto seconds = support::flux_duration(text))
        return seconds;
    d.add(Code::submit_value, "invalid Flux standard duration");
    return std::nullopt;
}

/// The duration -t gives, checked as flux checks it when it sets the jobspec's.
std::optional<double> duration(double seconds, Diagnostics& d) {
    if (seconds < 0) {
        d.add(Code::submit_value, "duration must not be negative");
        return std::nullopt;
    }
    if (!std::isfinite(seconds)) {
        d.add(Code::submit_value, "duration must be a normal, finite value");
        return std::nullopt;
    }
    return seconds;
}

/// What `check` returns for option `option`'s value `text`, its findings added to `d`
/// pointing into the value (attach_to_value).
template <class Check>
auto in_value(std::string_view option, const std::string& text, Diagnostics& d, Check check) {
    Diagnostics found;
    auto out = check(found);
    attach_to_value(option, text, found, d);
    return out;
}

class SubmissionLowering {
public:
    SubmissionLowering(const SubmitContext& context, Diagnostics& diagnostics)
        : ctx_(context), d_(diagnostics) {}

    Submission& result() { return out_; }

    bool run(const SubmitOptions& given) {
        SubmitOptions o = given;
        const auto cc = apply_cc(o, d_);
        if (!cc)
            return false;
        const bool run_like = !slots_command(o);
        if (run_like && o.arguments.empty())
            return fail("job command and arguments are missing");
        if (o.resources_shape && o.resources_json)
            return fail("`--resources-shape` and `--resources-json` are mutually exclusive "
                        "arguments. Use only one.");
        const bool from_plugin = o.resources_shape || o.resources_json;
        std::optional<double> seconds;
        if (o.time_limit &&
            !(seconds = in_value("--time-limit", *o.time_limit, d_, [&](Diagnostics& found) {
                  return time_limit(*o.time_limit, found);
              })))
            return false;
        auto layout = submission_layout(o, from_plugin, d_);
        if (!layout)
            return false;
        if (seconds &&
            !(seconds = in_value("--time-limit", *o.time_limit, d_,
                                 [&](Diagnostics& found) { return duration(*seconds, found); })))
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
        system.set("duration", seconds ? Number(*seconds) : Number(std::int64_t{0}));
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
            !set_environment_variable(out_.jobspec, out_.sources, "FLUX_JOB_CC",
                                      DocNode::of(std::to_string(**cc)), nullptr, d_))
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

    bool standard_io(const SubmitOptions& o) {
        const bool batch = o.command == SubmitCommand::batch;
        if (o.input) {
            const bool idset = !batch && model::decode_idset(*o.input).has_value();
            if (idset && o.command == SubmitCommand::submit)
                return fail("per-task input not supported for submit");
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
            auto signal = in_value("--signal", *o.signal, d_, [&](Diagnostics& found) {
                return signal_option(*o.signal, found);
            });
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
                const auto t = in_value("--begin-time", text, d_, [&](Diagnostics& found) {
                    return begin_time(text, ctx_.now, found);
                });
                if (!t)
                    return false;
                Dependency begin;
                begin.scheme = "begin-time";
                begin.value = support::python_float_repr(*t);
                out.push_back(std::move(begin));
                out_.sources.set(pointer, nullptr);
                continue;
            }
            auto uri = syntax::read_flux_uri(text, "dependency", d_);
            auto dependency = uri ? flux_dependency(std::move(*uri), d_) : std::nullopt;
            if (!dependency)
                return false;
            out.push_back(std::move(*dependency));
            out_.sources.set(pointer, option_text("--dependency", text));
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
        out_.sources.set("/attributes/system/constraints", nullptr);
        return true;
    }

    bool settings(const SubmitOptions& o) {
        for (const auto& text : o.setopts) {
            auto s = read_setting(text, "setopt", ctx_, d_);
            if (!s || !shell(s->key, s->value.to_json()))
                return false;
        }
        for (const auto& text : o.setattrs) {
            auto s = read_setting(text, "setattr", ctx_, d_);
            if (!s || !set_attribute(out_.jobspec, out_.sources, std::move(*s), d_))
                return false;
        }
        // Values an API gave: read into the tree once, as a text's are.
        for (const auto& [key, value] : o.setopt_values) {
            const Setting s{key, DocNode::from_json(value), nullptr};
            if (!within_depth(s, "setopt", ctx_.limits, d_) || !shell(key, value))
                return false;
        }
        for (const auto& [key, value] : o.setattr_values) {
            Setting s{key, DocNode::from_json(value), nullptr};
            if (!within_depth(s, "setattr", ctx_.limits, d_) ||
                !set_attribute(out_.jobspec, out_.sources, std::move(s), d_))
                return false;
        }
        return true;
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
            out_.sources.set("/resources", option_text("--resources-shape", *o.resources_shape));
            return !found.has_errors();
        }
        if (!o.resources_json)
            return true;
        const auto file = read_submission_file(ctx_, *o.resources_json, "", FileError::path, d_);
        if (!file)
            return false;
        Diagnostics problems;
        auto parsed = json_tree(file->content, ctx_.limits, problems);
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
        out_.sources.set("/resources", std::make_shared<const SourceText>(
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
                                           const SubmitContext& context, Diagnostics& diagnostics) {
    Diagnostics found(context.limits.max_diagnostics);
    SubmissionLowering lowering(context, found);
    const bool built = lowering.run(options);
    lowering.result().sources.attach(found, diagnostics);
    if (!built)
        return std::nullopt;
    return std::move(lowering.result());
}

} // namespace jobspec::lower
