#include "lower/submission_instance.hpp"

#include <fmt/format.h>

#include "lower/submission_values.hpp"

namespace jobspec::lower {

namespace {

void merge(boost::json::object& into, const boost::json::object& from) {
    for (const auto& [key, value] : from) {
        auto* existing = into.if_contains(key);
        if (existing != nullptr && existing->is_object() && value.is_object())
            merge(existing->get_object(), value.get_object());
        else
            into[key] = value;
    }
}

bool add_conf(const std::string& text, const SubmitContext& context, boost::json::object& conf,
              Diagnostics& d) {
    Diagnostics ignored;
    if (text.find('\n') != std::string::npos) {
        auto v = json_value(text, context.limits, ignored);
        if (!v || !v->is_object()) {
            d.add(Code::submit_value, "--conf: failed to parse multiline as TOML or JSON");
            return false;
        }
        merge(conf, v->get_object());
        return true;
    }
    if (const auto eq = text.find('='); eq != std::string::npos)
        return set_dotted(conf, text.substr(0, eq),
                          setting_value(text.substr(eq + 1), context.limits).to_json(), d);
    if (text.size() > 5 && text.substr(text.size() - 5) == ".json") {
        const auto file = read_submission_file(context, text, "--conf: ", FileError::errno_and_path, d);
        if (!file)
            return false;
        auto v = json_value(file->content, context.limits, ignored);
        if (!v || !v->is_object()) {
            d.add(Code::submit_value, fmt::format("--conf: parse error: {}", text));
            return false;
        }
        merge(conf, v->get_object());
        return true;
    }
    d.add(Code::submit_value,
          fmt::format("--conf: '{}': TOML and named configurations are not supported", text));
    return false;
}

} // namespace

bool prepare_instance(const SubmitOptions& o, const SubmitContext& context, Instance& in,
                      Diagnostics& d) {
    if (o.add_brokers && *o.add_brokers != 0) {
        d.add(Code::submit_value, "--add-brokers is not supported");
        return false;
    }
    const bool batch = o.command == SubmitCommand::batch;
    in.command = {"flux", "broker"};
    for (const auto& opts : o.broker_opts) {
        std::size_t start = 0;
        while (true) {
            const auto comma = opts.find(',', start);
            in.command.push_back(opts.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    }
    if (o.dump)
        in.command.push_back("-Scontent.dump=" + *o.dump);
    if (!batch && o.background && o.arguments.empty())
        in.command.push_back("-Sbroker.rc2_none=1");
    for (const auto& text : o.conf) {
        if (!in.conf)
            in.conf.emplace();
        if (!add_conf(text, context, *in.conf, d))
            return false;
    }
    if (in.conf)
        in.command.push_back("-c{{tmpdir}}/conf.json");
    if (!batch) {
        in.command.insert(in.command.end(), o.arguments.begin(), o.arguments.end());
        return true;
    }
    std::vector<std::string> args;
    if (o.wrap && !o.arguments.empty()) {
        in.script = "#!/bin/sh\n";
        for (std::size_t i = 0; i < o.arguments.size(); ++i)
            in.script += (i == 0 ? "" : " ") + o.arguments[i];
        in.script += "\n";
        in.job_name = o.arguments.front();
        args.assign(o.arguments.begin() + 1, o.arguments.end());
    } else {
        in.script = (o.wrap ? "#!/bin/sh\n" : "") + o.script.value_or("");
        in.job_name = o.arguments.empty() ? "batch" : o.arguments.front();
        if (!o.arguments.empty())
            args.assign(o.arguments.begin() + 1, o.arguments.end());
    }
    if (in.script.rfind("#!", 0) != 0) {
        d.add(Code::submit_value, fmt::format("{} does not appear to start with '#!'",
                                              o.job_name.value_or(in.job_name)));
        return false;
    }
    in.command.push_back("{{tmpdir}}/script");
    in.command.insert(in.command.end(), args.begin(), args.end());
    return true;
}

bool instance_attributes(const SubmitOptions& o, const Instance& in, const SubmitContext& ctx,
                         AttributeList& system, Diagnostics& d) {
    const auto shell = [&](const std::string& path, boost::json::value value) {
        return set_system_json(system, "shell", "options." + path, std::move(value), d);
    };
    if (!shell("per-resource.type", "node") || !shell("mpi", "none") ||
        !shell("exit-timeout", "none"))
        return false;
    boost::json::object files;
    if (in.conf) {
        boost::json::object conf;
        conf["mode"] = 33152;
        conf["data"] = *in.conf;
        files["conf.json"] = std::move(conf);
    }
    if (o.command == SubmitCommand::batch) {
        boost::json::object script;
        script["mode"] = 33216;
        script["data"] = in.script;
        script["encoding"] = "utf-8";
        files["script"] = std::move(script);
    }
    if (!files.empty())
        system.set("files", boost::json::value(std::move(files)));
    if (o.command == SubmitCommand::alloc) {
        if (o.background)
            return shell("pty.capture", 1);
        if (ctx.interactive)
            return shell("pty.interactive", 1);
    }
    return true;
}

} // namespace jobspec::lower
