// R (RFC 20 version 1) document tree -> ResourceSet, with every check RFC 20 asks for,
// each reported where the document has the value.
#include "lower/resource_set_lowering.hpp"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "lower/fluxion_graph_lowering.hpp"
#include "model/decoders.hpp"
#include "model/fluxion_graph_execution.hpp"
#include "model/resource_set_access.hpp"
#include "model/resource_set_build.hpp"
#include "support/json_pointer.hpp"
#include "support/json_text.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

namespace {

using support::JsonPointer;
using support::PointerScope;
using syntax::DocMember;
using syntax::DocNode;

/// A number node's value as a double.
double number(const DocNode& n) {
    switch (n.kind()) {
    case DocNode::Kind::integer:
        return static_cast<double>(n.integer());
    case DocNode::Kind::uinteger:
        return static_cast<double>(n.uinteger());
    default:
        return n.real();
    }
}

/// The node as JSON text, for messages.
std::string json_text(const DocNode& n) {
    return support::json_text(n.to_json());
}

class RReader {
public:
    explicit RReader(Diagnostics& diagnostics) : diags_(diagnostics) {}

    ResourceSet read(const DocNode& r) {
        ResourceSet out;
        const auto* top = object(r, "R");
        if (top == nullptr)
            return out;
        for (const auto& [key, key_range, value] : *top) {
            PointerScope at(ptr_, key);
            if (key == "version") {
                if (value.kind() != DocNode::Kind::integer || value.integer() != 1)
                    report(Code::R_version,
                           fmt::format("R version must be 1, not {}", json_text(value)),
                           value.range);
            } else if (key == "execution") {
                execution(value, out);
            } else if (key == "scheduling") {
                scheduling_key(value, out);
            } else {
                report(Code::R_unknown_key,
                       fmt::format("'{}' is not an RFC 20 key; it is dropped", key), key_range);
            }
        }
        for (const auto* key : {"version", "execution"})
            if (r.find(key) == nullptr)
                report(Code::R_missing_key, fmt::format("R has no '{}'", key), r.range);
        return out;
    }

private:
    void report(Code code, std::string message, SourceRange range) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()});
    }

    const std::vector<DocMember>* object(const DocNode& v, std::string_view what) {
        if (v.is_mapping())
            return &v.members();
        report(Code::R_type,
               fmt::format("{} must be a dictionary, not {}", what, syntax::describe(v.kind())),
               v.range);
        return nullptr;
    }

    const std::vector<DocNode>* array(const DocNode& v, std::string_view what) {
        if (v.is_sequence())
            return &v.elements();
        report(Code::R_type,
               fmt::format("{} must be a list, not {}", what, syntax::describe(v.kind())), v.range);
        return nullptr;
    }

    /// An RFC 22 idset string, or nothing (reported).
    std::optional<IdSet> idset(const DocNode& v, std::string_view what) {
        return read_r_idset(v, what, ptr_.str(), diags_);
    }

public:
    /// The scheduling key into `out`, TreePool's children entries typed.
    void scheduling_key(const DocNode& v, ResourceSet& out) {
        std::optional<std::vector<TreePoolEntry>> treepool;
        if (object(v, "'scheduling'") == nullptr || !scheduling(v, treepool))
            return;
        std::shared_ptr<const FluxionGraph> graph;
        if (const auto* jgf = v.find("graph"); jgf != nullptr && fluxion_writer(v)) {
            auto read = lower_fluxion_graph(v, ptr_.str(), diags_);
            if (!read)
                return;
            graph = std::make_shared<const FluxionGraph>(std::move(*read));
        }
        boost::json::object key;
        for (const auto& m : v.members()) // TreePool's entries and Fluxion's graph are typed
            key[m.key] = (treepool && m.key == "children") || (graph && m.key == "graph")
                             ? boost::json::value()
                             : m.value.to_json();
        out.scheduling = std::move(key);
        out.treepool = std::move(treepool);
        out.fluxion_graph = std::move(graph);
    }

    /// A JGF document as R: its nodes as execution, the graph as the scheduling key.
    ResourceSet jgf_document(const DocNode& jgf) {
        auto graph = lower_fluxion_graph(jgf, ptr_.str(), diags_);
        if (!graph)
            return {};
        ResourceSet out = model::execution_of(*graph);
        out.scheduling = boost::json::object{{"graph", nullptr}};
        out.fluxion_graph = std::make_shared<const FluxionGraph>(std::move(*graph));
        return out;
    }

    JsonPointer& pointer() { return ptr_; }

private:
    /// Whether the scheduling key is Fluxion's JGF: no writer, or "fluxion" or
    /// "fluxion:jgf" (Fluxion's other writers, as jgf_shorthand, are carried unread).
    static bool fluxion_writer(const DocNode& v) {
        const auto* writer = v.find("writer");
        return writer == nullptr || (writer->value.is_string() &&
                                     (writer->value.text() == "fluxion" ||
                                      writer->value.text() == "fluxion:jgf"));
    }

    /// RFC 20's writer (a string, "fluxion" when absent) and, when it is "TreePool",
    /// RFC 49's topology. Other schedulers' keys are theirs, carried unchecked.
    bool scheduling(const DocNode& v, std::optional<std::vector<TreePoolEntry>>& treepool) {
        const auto* writer = v.find("writer");
        if (writer == nullptr)
            return true;
        if (!writer->value.is_string()) {
            PointerScope at(ptr_, "writer");
            report(Code::R_scheduling,
                   fmt::format("scheduling.writer must be a string (a URI naming the scheduler), "
                               "not {}",
                               syntax::describe(writer->value.kind())),
                   writer->value.range);
            return false;
        }
        if (writer->value.text() != "TreePool")
            return true;
        const std::size_t errors = diags_.error_count();
        auto& entries = treepool.emplace();
        if (const auto* children = v.find("children")) {
            PointerScope children_at(ptr_, "children");
            if (const auto* list = array(children->value, "TreePool's 'children'"))
                for (std::size_t i = 0; i < list->size(); ++i) {
                    PointerScope entry_at(ptr_, i);
                    if (auto entry = treepool_entry((*list)[i]))
                        entries.push_back(std::move(*entry));
                }
        }
        return diags_.error_count() == errors;
    }

    /// An RFC 49 children entry: exactly "ranks" (an idset) and "topo" (a domain).
    std::optional<TreePoolEntry> treepool_entry(const DocNode& entry) {
        if (object(entry, "a TreePool children entry") == nullptr)
            return std::nullopt;
        const std::size_t errors = diags_.error_count();
        TreePoolEntry out;
        for (const auto& [key, key_range, value] : entry.members()) {
            PointerScope at(ptr_, key);
            if (key == "ranks") {
                if (auto ranks = idset(value, "ranks"))
                    out.ranks = std::move(*ranks);
            } else if (key == "topo") {
                topology_domain(value, 1);
                out.topo = value.to_json();
            } else
                report(Code::R_scheduling,
                       fmt::format("'{}' is not a TreePool children key: an entry has exactly "
                                   "'ranks' and 'topo' (RFC 49)",
                                   key),
                       key_range);
        }
        for (const char* key : {"ranks", "topo"})
            if (entry.find(key) == nullptr)
                report(Code::R_scheduling,
                       fmt::format("a TreePool children entry needs '{}' (RFC 49)", key),
                       entry.range);
        if (diags_.error_count() != errors)
            return std::nullopt;
        return out;
    }

    /// An RFC 49 locality domain: resource keys (cores, gpus, memory, storage) and
    /// locality names, each a list of domains.
    void topology_domain(const DocNode& domain, std::size_t depth) {
        if (object(domain, "a TreePool topology domain") == nullptr)
            return;
        if (depth > Limits::depth_ceiling) {
            report(Code::limit_depth, "TreePool's topology is nested too deeply", domain.range);
            return;
        }
        for (const auto& [key, key_range, value] : domain.members()) {
            PointerScope at(ptr_, key);
            if (key == "cores" || key == "gpus") {
                (void)idset(value, key);
            } else if (key == "memory") {
                if (value.kind() != DocNode::Kind::integer || value.integer() < 0)
                    report(Code::R_scheduling,
                           fmt::format("memory must be a whole number of GiB, not {}",
                                       json_text(value)),
                           value.range);
            } else if (key == "storage") {
                if (const auto* devices = array(value, "storage"))
                    for (std::size_t i = 0; i < devices->size(); ++i) {
                        PointerScope device_at(ptr_, i);
                        storage((*devices)[i]);
                    }
            } else if (const auto* children = array(value, fmt::format("locality '{}'", key))) {
                for (std::size_t i = 0; i < children->size(); ++i) {
                    PointerScope child_at(ptr_, i);
                    topology_domain((*children)[i], depth + 1);
                }
            }
        }
    }

    /// An RFC 49 storage object: path (a string) and capacity (a number), unit optional.
    void storage(const DocNode& device) {
        if (object(device, "a storage entry") == nullptr)
            return;
        const auto* path = device.find("path");
        const auto* capacity = device.find("capacity");
        const auto* unit = device.find("unit");
        if (path == nullptr || !path->value.is_string())
            report(Code::R_scheduling, "a storage entry needs 'path', a string (RFC 49)",
                   path != nullptr ? path->value.range : device.range);
        if (capacity == nullptr || !capacity->value.is_number())
            report(Code::R_scheduling, "a storage entry needs 'capacity', a number (RFC 49)",
                   capacity != nullptr ? capacity->value.range : device.range);
        if (unit != nullptr && !unit->value.is_string())
            report(Code::R_scheduling, "a storage entry's 'unit' is a string such as \"GiB\"",
                   unit->value.range);
    }

    void execution(const DocNode& v, ResourceSet& out) {
        const auto* e = object(v, "'execution'");
        if (e == nullptr)
            return;
        if (const auto* lite = v.find("R_lite")) {
            PointerScope at(ptr_, "R_lite");
            const std::size_t errors_before = diags_.error_count();
            r_lite(lite->value, out);
            ranks_known_ = diags_.error_count() == errors_before;
        } else {
            report(Code::R_missing_key, "'execution' has no 'R_lite'", v.range);
        }
        if (v.find("nodelist") == nullptr)
            report(Code::R_missing_key, "'execution' has no 'nodelist'", v.range);
        const DocNode* expiration = nullptr;
        for (const auto& [key, key_range, value] : *e) {
            PointerScope at(ptr_, key);
            if (key == "R_lite")
                continue;
            if (key == "nodelist") {
                nodelist(value, out);
            } else if (key == "properties") {
                properties(value, out);
            } else if (key == "nslots") {
                if (value.kind() != DocNode::Kind::integer || value.integer() <= 0)
                    report(
                        Code::R_nslots,
                        fmt::format("nslots must be an integer above 0, not {}", json_text(value)),
                        value.range);
                else
                    out.nslots = value.integer();
            } else if (key == "starttime" || key == "expiration") {
                if (!value.is_number()) {
                    report(Code::R_type,
                           fmt::format("'{}' must be a number of seconds, not {}", key,
                                       syntax::describe(value.kind())),
                           value.range);
                } else if (key == "starttime") {
                    out.starttime = number(value);
                } else {
                    out.expiration = number(value);
                    expiration = &value;
                }
            } else {
                report(Code::R_unknown_key,
                       fmt::format("'{}' is not an RFC 20 execution key; it is dropped", key),
                       key_range);
            }
        }
        if (out.starttime != 0 && out.expiration != 0 && out.expiration <= out.starttime) {
            PointerScope at(ptr_, "expiration");
            report(Code::R_expiration,
                   fmt::format("expiration {} is not after starttime {}", out.expiration,
                               out.starttime),
                   expiration != nullptr ? expiration->range : SourceRange{});
        }
    }

    void r_lite(const DocNode& v, ResourceSet& out) {
        const auto* entries = array(v, "'R_lite'");
        if (entries == nullptr)
            return;
        std::vector<IdSet::Range> seen;
        std::vector<std::pair<std::size_t, ResourceSet::Group>> entry_groups;
        for (std::size_t i = 0; i < entries->size(); ++i) {
            PointerScope at(ptr_, i);
            const DocNode& entry = (*entries)[i];
            if (object(entry, "an R_lite entry") == nullptr)
                continue;
            std::optional<IdSet> ranks;
            std::optional<IdSet> cores;
            IdSet gpus;
            bool ok = true;
            if (const auto* rank = entry.find("rank")) {
                PointerScope rank_at(ptr_, "rank");
                ranks = idset(rank->value, "rank");
                if (ranks && ranks->empty()) {
                    report(Code::R_idset, "rank is empty; an R_lite entry names at least one rank",
                           rank->value.range);
                    ranks.reset();
                }
            } else {
                report(Code::R_missing_key, "R_lite entry has no 'rank'", entry.range);
            }
            const auto* children = entry.find("children");
            if (children == nullptr) {
                report(Code::R_missing_key, "R_lite entry has no 'children'", entry.range);
                ok = false;
            } else {
                PointerScope children_at(ptr_, "children");
                const DocNode& c = children->value;
                if (const auto* members = object(c, "'children'")) {
                    for (const auto& [key, key_range, value] : *members)
                        if (PointerScope key_at(ptr_, key); key != "core" && key != "gpu")
                            report(Code::R_unknown_key,
                                   fmt::format("'{}' is not an RFC 20 resource (core, gpu); it is "
                                               "dropped",
                                               key),
                                   key_range);
                    if (const auto* core = c.find("core")) {
                        PointerScope core_at(ptr_, "core");
                        cores = idset(core->value, "core");
                    } else {
                        report(Code::R_missing_key, "'children' has no 'core'", c.range);
                    }
                    if (const auto* gpu = c.find("gpu")) {
                        PointerScope gpu_at(ptr_, "gpu");
                        auto g = idset(gpu->value, "gpu");
                        ok = ok && g.has_value();
                        gpus = g.value_or(IdSet{});
                    }
                } else {
                    ok = false;
                }
            }
            if (!ok || !ranks || !cores)
                continue;
            for (const auto& r : ranks->ranges())
                seen.push_back(r);
            entry_groups.emplace_back(
                i, ResourceSet::Group{std::move(*ranks), std::move(*cores), std::move(gpus)});
        }
        // Ranks in two entries: sort all rank ranges and look at neighbours. Such a rank
        // has the resources of both entries (as flux-core reads R), which must not share
        // an id: then the entries are added one by one, so the clash names its entry.
        std::sort(seen.begin(), seen.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        bool repeated = false;
        for (std::size_t k = 1; k < seen.size() && !repeated; ++k)
            repeated = seen[k].first <= seen[k - 1].last;
        if (!repeated) {
            std::unordered_map<std::string, std::size_t> index;
            std::vector<ResourceSet::Group> groups;
            for (auto& [i, g] : entry_groups) {
                const auto [it, inserted] =
                    index.emplace(g.cores.format() + '|' + g.gpus.format(), groups.size());
                if (inserted)
                    groups.push_back(std::move(g));
                else
                    for (const auto& r : g.ranks.ranges())
                        groups[it->second].ranks.insert(r.first, r.last);
            }
            ResourceSetAccess::assign(out, std::move(groups));
            return;
        }
        for (const auto& [i, group] : entry_groups) {
            ResourceSet one;
            ResourceSetAccess::assign(one, {group});
            if (const std::string clash = model::first_clash(out, one); !clash.empty()) {
                PointerScope at(ptr_, i, "rank");
                const auto* rank = (*entries)[i].find("rank");
                report(Code::R_overlap, clash + " here and in an earlier R_lite entry",
                       rank != nullptr ? rank->value.range : SourceRange{});
                return;
            }
            out = out.united(one);
        }
    }

    void nodelist(const DocNode& v, ResourceSet& out) {
        const auto* list = array(v, "'nodelist'");
        if (list == nullptr)
            return;
        Hostlist hosts;
        for (std::size_t i = 0; i < list->size(); ++i) {
            PointerScope at(ptr_, i);
            const auto& item = (*list)[i];
            if (!item.is_string()) {
                report(Code::R_type,
                       fmt::format("a nodelist entry must be a string, not {}",
                                   syntax::describe(item.kind())),
                       item.range);
                return;
            }
            auto parsed = model::decode_hostlist(item.text());
            if (!parsed) {
                report(
                    Code::R_hostlist,
                    fmt::format("'{}' is not a hostlist: {}", item.text(), parsed.error().message),
                    item.range);
                return;
            }
            hosts.append(*parsed);
        }
        // Counted only against ranks read whole: a bad rank is not also a nodelist error.
        const std::uint64_t named = hosts.count();
        if (!out.set_nodelist(std::move(hosts)) && ranks_known_) {
            const std::uint64_t ranks = out.count_ranks();
            report(Code::R_nodelist_count,
                   fmt::format("nodelist names {} host{}, but R_lite has {} rank{}", named,
                               named == 1 ? "" : "s", ranks, ranks == 1 ? "" : "s"),
                   list->empty() ? v.range : list->front().range);
        }
    }

    void properties(const DocNode& v, ResourceSet& out) {
        const auto* props = object(v, "'properties'");
        if (props == nullptr)
            return;
        const IdSet all = out.ranks();
        for (const auto& [name, name_range, value] : *props) {
            PointerScope at(ptr_, name);
            if (!ResourceSet::valid_property_name(name)) {
                report(Code::R_property_name, not_a_property_name(name), name_range);
                continue;
            }
            auto ranks = idset(value, "property ranks");
            if (!ranks)
                continue;
            if (!all.includes(*ranks)) {
                if (!ranks_known_)
                    continue;
                report(Code::R_property_ranks,
                       fmt::format("property '{}' names ranks {} that R_lite does not have", name,
                                   ranks->without(all).format()),
                       value.range);
                continue;
            }
            out.set_property(name, *ranks);
        }
    }

    Diagnostics& diags_;
    JsonPointer ptr_;
    /// Whether R_lite was read without errors, so that counts against its ranks are fair.
    bool ranks_known_ = false;
};

} // namespace

std::optional<IdSet> read_r_idset(const DocNode& v, std::string_view what, std::string pointer,
                                  Diagnostics& diagnostics) {
    if (!v.is_string()) {
        diagnostics.add(
            Code::R_type,
            fmt::format("{} must be an idset string, not {}", what, syntax::describe(v.kind())),
            Location{v.range, std::move(pointer)});
        return std::nullopt;
    }
    auto parsed = model::decode_idset(v.text());
    if (!parsed) {
        diagnostics.add(
            Code::R_idset,
            fmt::format("{} '{}' is not an idset: {}", what, v.text(), parsed.error().message),
            Location{v.range, std::move(pointer)});
        return std::nullopt;
    }
    return std::move(*parsed);
}

std::string not_a_property_name(std::string_view name) {
    return fmt::format("'{}' is not a property name (UTF-8, none of ! & ' \" ^ ` | ( ))", name);
}

ResourceSet lower_resource_set(const DocNode& r, Diagnostics& diagnostics) {
    if (is_jgf_document(r))
        return RReader(diagnostics).jgf_document(r);
    return RReader(diagnostics).read(r);
}

void lower_scheduling(const DocNode& scheduling, ResourceSet& into, Diagnostics& diagnostics) {
    RReader reader(diagnostics);
    PointerScope at(reader.pointer(), "scheduling");
    reader.scheduling_key(scheduling, into);
}

} // namespace jobspec::lower
