// What flux batch and flux alloc add for the new Flux instance: the broker command, the
// batch script, the instance's configuration and shell options.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include <jobspec/attributes.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

namespace jobspec::lower {

struct Instance {
    /// tasks[0].command: flux broker [OPTIONS] {{tmpdir}}/script ARGS, or COMMAND.
    std::vector<std::string> command;
    /// batch: the default job name (the script as given, "batch" for standard input).
    std::string job_name;
    /// batch: the script text carried in files.script.
    std::string script;
    /// --conf merged into one object; nothing without --conf.
    std::optional<boost::json::object> conf;
};

/// The broker command, script and configuration (a --conf file read through
/// context.read_file). False, with submit.value or submit.file, for a bad --conf, a
/// script that does not start with "#!", or --add-brokers (not supported).
bool prepare_instance(const SubmitOptions& options, const SubmitContext& context,
                      Instance& instance, Diagnostics& diagnostics);

/// Sets shell.options per-resource, mpi and exit-timeout, files conf.json and script, and
/// alloc's pty option in attributes.system.
bool instance_attributes(const SubmitOptions& options, const Instance& instance,
                         const SubmitContext& context, AttributeList& system,
                         Diagnostics& diagnostics);

} // namespace jobspec::lower
