// Flux's resource configuration (the [resource] table of its config files) -> R.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// One Flux configuration file: its name (shown in diagnostics; a name ending in ".json"
/// is read as JSON, any other as TOML, as flux-core does) and its text.
struct ConfigFile {
    std::string name;
    std::string text;
};

/// What the [resource] table of Flux's configuration says the instance's resources are.
struct ResourceConfig {
    /// R made from the resource.config array; nothing when there is no resource.config.
    std::optional<ResourceSet> resources;
    /// resource.path: a file holding R, which flux-core reads when there is no
    /// resource.config.
    std::optional<std::string> path;
    /// resource.scheduling: a JSON file whose value becomes R's scheduling key.
    std::optional<std::string> scheduling;
};

/// Reads Flux configuration files merged in the order given, as flux-core merges a
/// config directory (tables key by key; any other value replaced by a later file's),
/// and makes R of resource.config as `flux R parse-config` does: each entry's hosts
/// (a hostlist, required) get its cores and gpus (idsets) and properties; ranks are
/// given to hosts in the order they first appear; a host in several entries has the
/// resources of all of them, which must not share an id. Errors, each pointing into
/// its file (Location::source): R.config-syntax (TOML or JSON), R.config (no [resource]
/// table, neither resource.config nor resource.path, an entry's unknown key or empty
/// hosts, no hosts at all, hosts given no cores or gpus), limit.expansion (more than
/// 2^20 hosts: flux-core gives ranks host by host), R.type, R.missing-key, R.hostlist,
/// R.idset, R.property-name and R.overlap.
JOBSPEC_API Result<ResourceConfig> read_resource_config(const std::vector<ConfigFile>& files,
                                                        const Limits& limits = {});

/// The R the configuration describes, as `flux R parse-config` prints it: its
/// resources, or when it has none the R of `r_file` (resource.path's file); with the
/// JSON object of `scheduling_file` (resource.scheduling's file) as its scheduling key.
/// Errors: the R file's R.* diagnostics, R.config-syntax and R.type for the scheduling
/// file, R.config when there are no resources and no R file; each diagnostic of a file
/// points into it (Location::source).
JOBSPEC_API Result<ResourceSet> resource_set_of(const ResourceConfig& config,
                                                const std::optional<ConfigFile>& r_file,
                                                const std::optional<ConfigFile>& scheduling_file,
                                                const Limits& limits = {});

/// `flux R parse-config PATH` whole: the configuration at `path` (a directory's *.toml
/// files in name order, as flux-core lists them, or the one file; empty files allowed)
/// read through read_input, then the files its resource.path and resource.scheduling
/// name, and the R they make (read_resource_config, resource_set_of). Errors: theirs, and
/// io.unreadable (a file or the directory cannot be read), io.empty (a named file),
/// limit.input-size.
JOBSPEC_API Result<ResourceSet> read_resource_config_at(std::string_view path,
                                                        const Limits& limits = {});

/// A queue of Flux's configuration (RFC 33), as the jobs submitted to it see it.
struct Queue {
    std::string name;
    /// The properties it adds to its jobs' constraints: queues.NAME.requires, or for a
    /// virtual queue (queues.NAME.parent) its parent's.
    std::vector<std::string> properties;
    /// Its members: queues.NAME.hosts ("all", or these hosts), or its parent's; nothing
    /// when neither names hosts. They have the membership property, which its jobs must
    /// have.
    struct Hosts {
        /// "all": every host of R.
        bool all = false;
        Hostlist list;
    };
    std::optional<Hosts> hosts;
    /// "+NAME", NAME being the parent's for a virtual queue.
    std::string membership;
};

/// The queue a job submitted to `name` goes to, from configuration files merged as
/// read_resource_config merges them (a later queues.NAME table replaces an earlier one).
/// An empty `name` means the default queue (policy.jobspec.defaults.system.queue); nothing
/// when none is named and there is no default. Errors (match.queue, in the file): no
/// such queue, a parent that is not configured or is itself virtual, requires that is not
/// an array of strings, hosts that is not a string, both hosts and requires.
JOBSPEC_API Result<std::optional<Queue>>
read_queue(const std::vector<ConfigFile>& files, std::string_view name, const Limits& limits = {});
/// read_queue of the configuration at `path` (a directory's *.toml files, or one file).
JOBSPEC_API Result<std::optional<Queue>> read_queue_at(std::string_view path, std::string_view name,
                                                       const Limits& limits = {});

} // namespace jobspec
