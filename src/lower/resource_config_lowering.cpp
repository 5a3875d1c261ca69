// Flux's resource.config array -> ResourceSet: hosts get ranks in the order they first
// appear, and each entry's cores, gpus and properties.
#include "lower/resource_config_lowering.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include <jobspec/suggest.hpp>

#include "lower/resource_set_lowering.hpp"
#include "model/decoders.hpp"
#include "model/resource_set_build.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::lower {

namespace {

using support::JsonPointer;
using support::PointerScope;
using syntax::DocNode;

/// The most hosts a configuration may name: flux-core gives ranks host by host.
constexpr std::uint64_t max_hosts = std::uint64_t{1} << 20;

constexpr std::array<std::string_view, 4> entry_keys{"hosts", "cores", "gpus", "properties"};

/// One entry as read: the ranks of its hosts and what they get.
struct Entry {
    std::size_t index;
    IdSet ranks;
    IdSet cores;
    IdSet gpus;
    std::vector<std::string> properties;
    SourceRange hosts_range;
};

class ConfigReader {
public:
    explicit ConfigReader(Diagnostics& diagnostics) : diags_(diagnostics) {
        ptr_.push("resource");
        ptr_.push("config");
    }

    ResourceSet read(const DocNode& config) {
        ResourceSet out;
        if (!config.is_sequence()) {
            report(Code::R_config,
                   fmt::format("resource.config must be a list of tables ([[resource.config]]), "
                               "not {}",
                               syntax::describe(config.kind())),
                   config.range);
            return out;
        }
        if (config.elements().empty()) {
            report(Code::R_config, "resource.config names no hosts", config.range);
            return out;
        }
        std::vector<Entry> entries;
        for (std::size_t i = 0; i < config.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            auto entry = read_entry(i, config.elements()[i]);
            if (!entry)
                return out;
            entries.push_back(std::move(*entry));
        }
        if (!combine(entries, out))
            return out;
        for (const Entry& e : entries)
            for (const auto& name : e.properties)
                out.set_property(name, e.ranks);
        out.set_nodelist(std::move(hosts_));
        return out;
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }

    std::optional<IdSet> idset(const DocNode& v, std::string_view key) {
        PointerScope at(ptr_, key);
        return read_r_idset(v, key, ptr_.str(), diags_);
    }

    std::optional<Entry> read_entry(std::size_t index, const DocNode& v) {
        if (!v.is_mapping()) {
            report(Code::R_type,
                   fmt::format("a resource.config entry must be a table, not {}",
                               syntax::describe(v.kind())),
                   v.range);
            return std::nullopt;
        }
        for (const auto& member : v.members()) {
            if (std::find(entry_keys.begin(), entry_keys.end(), member.key) != entry_keys.end())
                continue;
            PointerScope at(ptr_, member.key);
            const std::vector<std::string_view> known(entry_keys.begin(), entry_keys.end());
            const auto near = closest(member.key, known);
            report(Code::R_config,
                   fmt::format("'{}' is not a resource.config key (hosts, cores, gpus, properties)",
                               member.key),
                   member.key_range, near ? fmt::format("did you mean '{}'?", *near) : "");
            return std::nullopt;
        }
        Entry entry{index, {}, {}, {}, {}, v.range};
        const auto* hosts = v.find("hosts");
        if (hosts == nullptr) {
            report(Code::R_missing_key, "a resource.config entry needs 'hosts'", v.range);
            return std::nullopt;
        }
        if (!ranks_of(hosts->value, entry))
            return std::nullopt;
        for (const char* key : {"cores", "gpus"}) {
            const auto* member = v.find(key);
            if (member == nullptr)
                continue;
            auto ids = idset(member->value, key);
            if (!ids)
                return std::nullopt;
            (key[0] == 'c' ? entry.cores : entry.gpus) = std::move(*ids);
        }
        if (const auto* props = v.find("properties"); props != nullptr) {
            PointerScope at(ptr_, "properties");
            if (!props->value.is_sequence()) {
                report(Code::R_type,
                       fmt::format("properties must be a list of names, not {}",
                                   syntax::describe(props->value.kind())),
                       props->value.range);
                return std::nullopt;
            }
            for (std::size_t i = 0; i < props->value.elements().size(); ++i) {
                const DocNode& name = props->value.elements()[i];
                PointerScope item(ptr_, i);
                if (!name.is_string() || !ResourceSet::valid_property_name(name.text())) {
                    report(Code::R_property_name,
                           name.is_string()
                               ? not_a_property_name(name.text())
                               : fmt::format("a property name must be a string, not {}",
                                             syntax::describe(name.kind())),
                           name.range);
                    return std::nullopt;
                }
                entry.properties.push_back(name.text());
            }
        }
        return entry;
    }

    /// The ranks of the entry's hosts, giving each host not seen before the next rank.
    bool ranks_of(const DocNode& v, Entry& entry) {
        PointerScope at(ptr_, "hosts");
        entry.hosts_range = v.range;
        if (!v.is_string()) {
            report(Code::R_type,
                   fmt::format("hosts must be a hostlist string, not {}", syntax::describe(v.kind())),
                   v.range);
            return false;
        }
        auto hosts = model::decode_hostlist(v.text());
        if (!hosts) {
            report(Code::R_hostlist,
                   fmt::format("hosts '{}' is not a hostlist: {}", v.text(), hosts.error().message),
                   v.range);
            return false;
        }
        if (hosts->empty()) {
            report(Code::R_config, "hosts is empty; an entry names at least one host", v.range);
            return false;
        }
        if (hosts->count() > max_hosts - rank_of_.size()) {
            report(Code::limit_expansion,
                   fmt::format("the configuration names more than {} hosts", max_hosts), v.range,
                   "flux-core gives ranks host by host; split the instance");
            return false;
        }
        // Sorted before they go in, so hosts listed in any order cost n log n.
        std::vector<std::uint64_t> ranks;
        for (const auto& run : hosts->runs()) {
            Hostlist one;
            one.append(run);
            for (std::uint64_t i = 0; i < run.size(); ++i) {
                std::string host = *one.nth(i);
                const auto [it, added] = rank_of_.try_emplace(host, rank_of_.size());
                if (added)
                    hosts_.append(host);
                ranks.push_back(it->second);
            }
        }
        std::sort(ranks.begin(), ranks.end());
        for (const std::uint64_t rank : ranks)
            entry.ranks.insert(rank);
        return true;
    }

    /// Adds every entry's resources to `out`. Ranks named by several entries get the
    /// resources of all of them: entry by entry, so a clash names its entry.
    bool combine(const std::vector<Entry>& entries, ResourceSet& out) {
        IdSet seen;
        IdSet repeated;
        IdSet with_resources;
        for (const Entry& e : entries) {
            repeated = repeated.united(seen.intersected(e.ranks));
            seen = seen.united(e.ranks);
            if (!e.cores.empty() || !e.gpus.empty())
                with_resources = with_resources.united(e.ranks);
        }
        model::Grouper grouper;
        ResourceSet shared;
        for (const Entry& e : entries) {
            if (e.cores.empty() && e.gpus.empty())
                continue;
            const IdSet alone = e.ranks.without(repeated);
            if (!alone.empty())
                grouper.add(alone, e.cores, e.gpus);
            const IdSet again = e.ranks.intersected(repeated);
            if (again.empty())
                continue;
            ResourceSet one;
            one.add(again, e.cores, e.gpus);
            if (const std::string clash = model::first_clash(shared, one); !clash.empty()) {
                PointerScope at(ptr_, e.index);
                report(Code::R_overlap, clash + " here and in an earlier resource.config entry",
                       e.hosts_range);
                return false;
            }
            shared = shared.united(one);
        }
        for (const auto& g : grouper.take())
            out.add(g.ranks, g.cores, g.gpus);
        for (const auto& g : shared.groups())
            out.add(g.ranks, g.cores, g.gpus);
        if (const IdSet empty = seen.without(with_resources); !empty.empty()) {
            for (const Entry& e : entries) {
                if (e.ranks.intersected(empty).empty())
                    continue;
                PointerScope at(ptr_, e.index);
                report(Code::R_config,
                       fmt::format("{} assigned no resources: no entry gives {} cores or gpus",
                                   hosts_.pick(empty).encode(), empty.count() == 1 ? "it" : "them"),
                       e.hosts_range);
                return false;
            }
        }
        return true;
    }

    Diagnostics& diags_;
    JsonPointer ptr_;
    std::unordered_map<std::string, std::uint64_t> rank_of_;
    Hostlist hosts_;
};

} // namespace

ResourceSet lower_resource_config(const DocNode& config, Diagnostics& diagnostics) {
    return ConfigReader(diagnostics).read(config);
}

} // namespace jobspec::lower
