// Flux configuration files -> ResourceConfig: each file read (TOML, or JSON), merged as
// flux-core merges them, and resource.config lowered to R.
#include <jobspec/resource_config.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include <jobspec/input.hpp>

#include "lower/resource_config_lowering.hpp"
#include "lower/resource_set_lowering.hpp"
#include "model/decoders.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

namespace {

/// Configuration files written in JSON report in the R.config family.
constexpr syntax::JsonDialect config_json{"configuration",
                                          "the configuration",
                                          "invalid JSON",
                                          Code::R_config_syntax,
                                          Code::R_config_syntax,
                                          Code::R_config_syntax,
                                          true};

bool is_json(std::string_view name) {
    const auto dot = name.rfind('.');
    return dot != std::string_view::npos && name.substr(dot + 1) == "json";
}

/// Where a [resource] key's value came from once the files are merged.
struct Pick {
    const syntax::DocNode* node = nullptr;
    std::size_t file = 0;
};

} // namespace

namespace {

/// Each file read into a tree, with the source its diagnostics point into; nothing when
/// one does not read (its errors added).
std::optional<std::vector<syntax::DocNode>>
read_trees(const std::vector<ConfigFile>& files, const Limits& limits, Diagnostics& diagnostics,
           std::vector<std::shared_ptr<const SourceText>>& sources) {
    std::vector<syntax::DocNode> trees;
    for (const ConfigFile& file : files) {
        sources.push_back(
            std::make_shared<const SourceText>(SourceText{file.name, file.text, true}));
        Diagnostics found(limits.max_diagnostics);
        auto tree = is_json(file.name)
                        ? syntax::read_json(file.text, limits, found, config_json)
                        : syntax::read_toml(file.text, limits, found, Code::R_config_syntax,
                                            Code::R_config_syntax);
        if (tree && !tree->is_mapping()) {
            found.add(Code::R_config_syntax,
                      fmt::format("a configuration file must be a JSON object, not {}",
                                  syntax::describe(tree->kind())),
                      Location(tree->range));
            tree.reset();
        }
        diagnostics.append(found, sources.back());
        if (!tree)
            return std::nullopt;
        trees.push_back(std::move(*tree));
    }
    return trees;
}

} // namespace

Result<ResourceConfig> read_resource_config(const std::vector<ConfigFile>& files,
                                            const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    std::vector<std::shared_ptr<const SourceText>> sources;
    auto read = read_trees(files, limits, diagnostics, sources);
    if (!read)
        return Result<ResourceConfig>(std::move(diagnostics));
    const std::vector<syntax::DocNode>& trees = *read;

    // A later [resource] table merges into the earlier one key by key; any other value
    // of `resource` (or of one of its keys) replaces what was there.
    std::optional<Pick> resource;
    std::optional<Pick> config, path, scheduling;
    for (std::size_t f = 0; f < trees.size(); ++f) {
        const auto* member = trees[f].find("resource");
        if (member == nullptr)
            continue;
        const bool was_table = resource && resource->node->is_mapping();
        resource = Pick{&member->value, f};
        if (!member->value.is_mapping() || !was_table) {
            config.reset();
            path.reset();
            scheduling.reset();
        }
        if (!member->value.is_mapping())
            continue;
        for (auto [key, pick] : {std::pair{"config", &config}, std::pair{"path", &path},
                                 std::pair{"scheduling", &scheduling}})
            if (const auto* m = member->value.find(key))
                *pick = Pick{&m->value, f};
    }

    ResourceConfig out;
    const auto report = [&](const Pick& at, Code code, std::string message, std::string pointer) {
        diagnostics.add(code, std::move(message),
                        Location(at.node->range, std::move(pointer), sources[at.file]));
    };
    if (!resource) {
        diagnostics.add(Code::R_config, "the configuration has no [resource] table", {},
                        "add [[resource.config]] entries, or resource.path naming an R file");
        return Result<ResourceConfig>(std::move(diagnostics));
    }
    if (!resource->node->is_mapping()) {
        report(*resource, Code::R_type,
               fmt::format("resource must be a table, not {}",
                           syntax::describe(resource->node->kind())),
               "/resource");
        return Result<ResourceConfig>(std::move(diagnostics));
    }
    for (auto [key, pick, value] : {std::tuple{"path", &path, &out.path},
                                    std::tuple{"scheduling", &scheduling, &out.scheduling}}) {
        if (!*pick)
            continue;
        if (!(*pick)->node->is_string())
            report(**pick, Code::R_type,
                   fmt::format("resource.{} must be a file name, not {}", key,
                               syntax::describe((*pick)->node->kind())),
                   fmt::format("/resource/{}", key));
        else
            *value = (*pick)->node->text();
    }
    if (config) {
        Diagnostics found(limits.max_diagnostics);
        ResourceSet r = lower::lower_resource_config(*config->node, found);
        diagnostics.append(found, sources[config->file]);
        if (!found.has_errors())
            out.resources = std::move(r);
    } else if (!path) {
        report(*resource, Code::R_config, "resource.config or resource.path must be defined",
               "/resource");
    }
    if (diagnostics.has_errors())
        return Result<ResourceConfig>(std::move(diagnostics));
    return {std::move(out), std::move(diagnostics)};
}

Result<ResourceSet> resource_set_of(const ResourceConfig& config,
                                    const std::optional<ConfigFile>& r_file,
                                    const std::optional<ConfigFile>& scheduling_file,
                                    const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    std::optional<ResourceSet> r = config.resources;
    if (!r && r_file) {
        auto read = read_resource_set(r_file->text, limits);
        diagnostics.append(read.diagnostics(), std::make_shared<const SourceText>(
                                                   SourceText{r_file->name, r_file->text, true}));
        if (read.ok())
            r = std::move(read).value();
    }
    if (!r) {
        if (!diagnostics.has_errors())
            diagnostics.add(Code::R_config,
                            config.path ? fmt::format("the R file {} was not given", *config.path)
                                        : std::string("the configuration has no resources"));
        return Result<ResourceSet>(std::move(diagnostics));
    }
    if (scheduling_file) {
        Diagnostics found(limits.max_diagnostics);
        const auto tree = syntax::read_json(scheduling_file->text, limits, found, config_json);
        if (tree && !tree->is_mapping())
            found.add(Code::R_type,
                      fmt::format("the scheduling key must be a JSON object, not {}",
                                  syntax::describe(tree->kind())),
                      Location(tree->range));
        else if (tree)
            lower::lower_scheduling(*tree, *r, found);
        diagnostics.append(found, std::make_shared<const SourceText>(SourceText{
                                      scheduling_file->name, scheduling_file->text, true}));
        if (found.has_errors())
            return Result<ResourceSet>(std::move(diagnostics));
    }
    return {std::move(*r), std::move(diagnostics)};
}

namespace {

/// The text of one file as a ConfigFile, its problems added to `diagnostics`.
std::optional<ConfigFile> read_config_file(const std::string& name, const Limits& limits,
                                           bool allow_empty, Diagnostics& diagnostics) {
    auto text = read_input(name, InputOptions{limits, allow_empty});
    diagnostics.append(text.diagnostics());
    if (!text.ok())
        return std::nullopt;
    return ConfigFile{name, std::move(text).value()};
}

/// The configuration files at `path`: a directory's *.toml files in name order, or the
/// one file; nothing when one cannot be read (its errors added).
std::optional<std::vector<ConfigFile>> config_files_at(std::string_view path, const Limits& limits,
                                                       Diagnostics& diagnostics) {
    namespace fs = std::filesystem;
    std::vector<std::string> names;
    std::error_code error;
    if (fs::is_directory(path, error)) {
        for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error))
            if (it->path().extension() == ".toml")
                names.push_back(it->path().string());
        if (error) {
            diagnostics.add(Code::io_unreadable,
                            fmt::format("cannot list '{}': {}", path, error.message()));
            return std::nullopt;
        }
        std::sort(names.begin(), names.end());
    } else {
        names.emplace_back(path);
    }
    std::vector<ConfigFile> files;
    for (const auto& name : names) {
        auto file = read_config_file(name, limits, true, diagnostics);
        if (!file)
            return std::nullopt;
        files.push_back(std::move(*file));
    }
    return files;
}

} // namespace

Result<ResourceSet> read_resource_config_at(std::string_view path, const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    const auto files = config_files_at(path, limits, diagnostics);
    if (!files)
        return Result<ResourceSet>(std::move(diagnostics));
    auto config = read_resource_config(*files, limits);
    diagnostics.append(config.diagnostics());
    if (!config.ok())
        return Result<ResourceSet>(std::move(diagnostics));
    const auto named = [&](const std::optional<std::string>& name) {
        return name ? read_config_file(*name, limits, false, diagnostics) : std::nullopt;
    };
    const auto r_file = config.value().resources ? std::nullopt : named(config.value().path);
    const auto scheduling_file = named(config.value().scheduling);
    if (diagnostics.has_errors())
        return Result<ResourceSet>(std::move(diagnostics));
    auto r = resource_set_of(config.value(), r_file, scheduling_file, limits);
    diagnostics.append(r.diagnostics());
    if (!r.ok())
        return Result<ResourceSet>(std::move(diagnostics));
    return {std::move(r).value(), std::move(diagnostics)};
}

namespace {

/// A member of nested tables ("policy", "jobspec", ...), or nullptr.
const syntax::DocNode* at_path(const syntax::DocNode& tree,
                               std::initializer_list<const char*> keys) {
    const syntax::DocNode* node = &tree;
    for (const char* key : keys) {
        const auto* m = node->is_mapping() ? node->find(key) : nullptr;
        if (m == nullptr)
            return nullptr;
        node = &m->value;
    }
    return node;
}

} // namespace

Result<std::optional<Queue>> read_queue(const std::vector<ConfigFile>& files, std::string_view name,
                                        const Limits& limits) {
    using Out = Result<std::optional<Queue>>;
    Diagnostics diagnostics(limits.max_diagnostics);
    std::vector<std::shared_ptr<const SourceText>> sources;
    auto read = read_trees(files, limits, diagnostics, sources);
    if (!read)
        return Out(std::move(diagnostics));
    // Each queue's table, from the last file that has it; the default queue likewise.
    std::map<std::string, Pick, std::less<>> queues;
    std::optional<Pick> fallback;
    for (std::size_t f = 0; f < read->size(); ++f) {
        if (const auto* table = at_path((*read)[f], {"queues"}); table && table->is_mapping())
            for (const auto& m : table->members())
                queues[m.key] = Pick{&m.value, f};
        if (const auto* d =
                at_path((*read)[f], {"policy", "jobspec", "defaults", "system", "queue"}))
            fallback = Pick{d, f};
    }
    const auto fail = [&](const Pick* at, std::string message) {
        diagnostics.add(Code::match_queue, std::move(message),
                        at ? Location(at->node->range, {}, sources[at->file]) : Location{});
        return Out(std::move(diagnostics));
    };
    std::string chosen(name);
    if (chosen.empty() && fallback) {
        if (!fallback->node->is_string())
            return fail(&*fallback, "policy.jobspec.defaults.system.queue must be a string");
        chosen = fallback->node->text();
    }
    if (chosen.empty())
        return Out(std::optional<Queue>{}, std::move(diagnostics));
    const auto it = queues.find(chosen);
    if (it == queues.end()) {
        std::string known;
        for (const auto& [q, _] : queues)
            known += (known.empty() ? "" : ", ") + q;
        return fail(fallback && name.empty() ? &*fallback : nullptr,
                    fmt::format("no queue '{}' is configured{}", chosen,
                                known.empty() ? "" : " (queues: " + known + ")"));
    }
    Queue q;
    q.name = chosen;
    Pick table = it->second;
    if (!table.node->is_mapping())
        return fail(&table, fmt::format("queues.{} must be a table", chosen));
    std::string members = chosen;
    if (const auto* parent = table.node->find("parent")) {
        const Pick at{&parent->value, table.file};
        const auto p = parent->value.is_string() ? queues.find(parent->value.text()) : queues.end();
        if (p == queues.end())
            return fail(&at, fmt::format("queue '{}': its parent queue is not configured", chosen));
        if (!p->second.node->is_mapping() || p->second.node->find("parent") != nullptr)
            return fail(&at, fmt::format("queue '{}': its parent '{}' is itself a virtual queue",
                                         chosen, p->first));
        members = p->first;
        table = p->second;
    }
    q.membership = "+" + members;
    const auto* required = table.node->find("requires");
    const auto* hosts = table.node->find("hosts");
    if (required != nullptr && hosts != nullptr)
        return fail(&table, fmt::format("queue '{}' has both hosts and requires", members));
    if (required != nullptr) {
        const Pick at{&required->value, table.file};
        if (!required->value.is_sequence())
            return fail(&at,
                        fmt::format("queues.{}.requires must be an array of strings", members));
        for (const auto& p : required->value.elements()) {
            if (!p.is_string())
                return fail(&at,
                            fmt::format("queues.{}.requires must be an array of strings", members));
            q.properties.push_back(p.text());
        }
    }
    if (hosts != nullptr) {
        const Pick at{&hosts->value, table.file};
        if (!hosts->value.is_string())
            return fail(&at, fmt::format("queues.{}.hosts must be a string", members));
        if (hosts->value.text() == "all") {
            q.hosts = Queue::Hosts{true, {}};
        } else {
            auto list = model::decode_hostlist(hosts->value.text());
            if (!list)
                return fail(&at, fmt::format("queue '{}': hosts '{}' is not a hostlist: {}",
                                             members, hosts->value.text(), list.error().message));
            q.hosts = Queue::Hosts{false, *std::move(list)};
        }
    }
    return Out(std::optional<Queue>(std::move(q)), std::move(diagnostics));
}

Result<std::optional<Queue>> read_queue_at(std::string_view path, std::string_view name,
                                           const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    const auto files = config_files_at(path, limits, diagnostics);
    if (!files)
        return Result<std::optional<Queue>>(std::move(diagnostics));
    auto queue = read_queue(*files, name, limits);
    diagnostics.append(queue.diagnostics());
    if (!queue.ok())
        return Result<std::optional<Queue>>(std::move(diagnostics));
    return {std::move(queue).value(), std::move(diagnostics)};
}

} // namespace jobspec
