// R (RFC 20 version 1) JSON -> ResourceSet, with every check RFC 20 asks for.
#include <jobspec/resource_set.hpp>

#include <algorithm>
#include <unordered_map>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include "model/resource_set_access.hpp"
#include "support/input_limit.hpp"
#include "support/json_kinds.hpp"
#include "support/json_parse.hpp"
#include "support/json_pointer.hpp"

namespace jobspec {

namespace {

using support::JsonPointer;
using support::PointerScope;

class RReader {
public:
    explicit RReader(Diagnostics& diagnostics) : diags_(diagnostics) {}

    ResourceSet read(const boost::json::value& r) {
        ResourceSet out;
        const auto* top = object(r, "R");
        if (top == nullptr)
            return out;
        for (const auto& [key, value] : *top) {
            PointerScope at(ptr_, key);
            if (key == "version") {
                if (!value.is_int64() || value.get_int64() != 1)
                    report(Code::R_version, fmt::format("R version must be 1, not {}",
                                                        boost::json::serialize(value)));
            } else if (key == "execution") {
                execution(value, out);
            } else if (key == "scheduling") {
                if (object(value, "'scheduling'") != nullptr)
                    out.scheduling = value;
            } else {
                report(Code::R_unknown_key,
                       fmt::format("'{}' is not an RFC 20 key; it is dropped", std::string(key)));
            }
        }
        for (const auto* key : {"version", "execution"})
            if (!top->contains(key))
                report(Code::R_missing_key, fmt::format("R has no '{}'", key));
        return out;
    }

private:
    void report(Code code, std::string message) {
        diags_.add(code, std::move(message), Location{{}, ptr_.str()});
    }

    const boost::json::object* object(const boost::json::value& v, std::string_view what) {
        if (v.is_object())
            return &v.get_object();
        report(Code::R_type,
               fmt::format("{} must be a dictionary, not {}", what, support::describe(v.kind())));
        return nullptr;
    }

    const boost::json::array* array(const boost::json::value& v, std::string_view what) {
        if (v.is_array())
            return &v.get_array();
        report(Code::R_type,
               fmt::format("{} must be a list, not {}", what, support::describe(v.kind())));
        return nullptr;
    }

    /// An RFC 22 idset string, or nothing (reported).
    std::optional<IdSet> idset(const boost::json::value& v, std::string_view what) {
        if (!v.is_string()) {
            report(Code::R_type, fmt::format("{} must be an idset string, not {}", what,
                                             support::describe(v.kind())));
            return std::nullopt;
        }
        auto parsed = IdSet::parse(v.get_string());
        if (!parsed) {
            report(Code::R_idset, fmt::format("{} '{}' is not an idset: {}", what,
                                              std::string(v.get_string()), parsed.error().message));
            return std::nullopt;
        }
        return std::move(*parsed);
    }

    void execution(const boost::json::value& v, ResourceSet& out) {
        const auto* e = object(v, "'execution'");
        if (e == nullptr)
            return;
        if (const auto* lite = e->if_contains("R_lite")) {
            PointerScope at(ptr_, "R_lite");
            const std::size_t errors_before = diags_.error_count();
            r_lite(*lite, out);
            ranks_known_ = diags_.error_count() == errors_before;
        } else {
            report(Code::R_missing_key, "'execution' has no 'R_lite'");
        }
        for (const auto& [key, value] : *e) {
            PointerScope at(ptr_, key);
            if (key == "R_lite")
                continue;
            if (key == "nodelist") {
                nodelist(value, out);
            } else if (key == "properties") {
                properties(value, out);
            } else if (key == "nslots") {
                if (!value.is_int64() || value.get_int64() <= 0)
                    report(Code::R_nslots, fmt::format("nslots must be an integer above 0, not {}",
                                                       boost::json::serialize(value)));
                else
                    out.nslots = value.get_int64();
            } else if (key == "starttime" || key == "expiration") {
                if (!support::is_number(value))
                    report(Code::R_type,
                           fmt::format("'{}' must be a number of seconds, not {}", std::string(key),
                                       support::describe(value.kind())));
                else
                    (key == "starttime" ? out.starttime : out.expiration) =
                        support::as_double(value);
            } else {
                report(Code::R_unknown_key,
                       fmt::format("'{}' is not an RFC 20 execution key; it is dropped",
                                   std::string(key)));
            }
        }
        if (out.starttime != 0 && out.expiration != 0 && out.expiration <= out.starttime) {
            PointerScope at(ptr_, "expiration");
            report(Code::R_expiration, fmt::format("expiration {} is not after starttime {}",
                                                   out.expiration, out.starttime));
        }
    }

    void r_lite(const boost::json::value& v, ResourceSet& out) {
        const auto* entries = array(v, "'R_lite'");
        if (entries == nullptr)
            return;
        struct Seen {
            std::uint64_t first, last;
            std::size_t entry;
        };
        std::vector<Seen> seen;
        std::unordered_map<std::string, std::size_t> index;
        std::vector<ResourceSet::Group> groups;
        for (std::size_t i = 0; i < entries->size(); ++i) {
            PointerScope at(ptr_, i);
            const auto* entry = object((*entries)[i], "an R_lite entry");
            if (entry == nullptr)
                continue;
            std::optional<IdSet> ranks;
            std::optional<IdSet> cores;
            IdSet gpus;
            bool ok = true;
            if (const auto* rank = entry->if_contains("rank")) {
                PointerScope rank_at(ptr_, "rank");
                ranks = idset(*rank, "rank");
                if (ranks && ranks->empty()) {
                    report(Code::R_idset, "rank is empty; an R_lite entry names at least one rank");
                    ranks.reset();
                }
            } else {
                report(Code::R_missing_key, "R_lite entry has no 'rank'");
            }
            const auto* children = entry->if_contains("children");
            if (children == nullptr) {
                report(Code::R_missing_key, "R_lite entry has no 'children'");
                ok = false;
            } else {
                PointerScope children_at(ptr_, "children");
                if (const auto* c = object(*children, "'children'")) {
                    if (const auto* core = c->if_contains("core")) {
                        PointerScope core_at(ptr_, "core");
                        cores = idset(*core, "core");
                    } else {
                        report(Code::R_missing_key, "'children' has no 'core'");
                    }
                    if (const auto* gpu = c->if_contains("gpu")) {
                        PointerScope gpu_at(ptr_, "gpu");
                        auto g = idset(*gpu, "gpu");
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
                seen.push_back({r.first, r.last, i});
            const std::string key = cores->format() + '|' + gpus.format();
            const auto [it, inserted] = index.emplace(key, groups.size());
            if (inserted)
                groups.push_back({*ranks, *cores, gpus});
            else
                for (const auto& r : ranks->ranges())
                    groups[it->second].ranks.insert(r.first, r.last);
        }
        // Ranks in two entries: sort all rank ranges and look at neighbours.
        std::sort(seen.begin(), seen.end(),
                  [](const Seen& a, const Seen& b) { return a.first < b.first; });
        for (std::size_t k = 1; k < seen.size(); ++k) {
            if (seen[k].first <= seen[k - 1].last) {
                const Seen& later = seen[k].entry > seen[k - 1].entry ? seen[k] : seen[k - 1];
                const Seen& earlier = seen[k].entry > seen[k - 1].entry ? seen[k - 1] : seen[k];
                PointerScope at(ptr_, later.entry, "rank");
                report(Code::R_overlap,
                       fmt::format("rank {} is also in R_lite entry {}",
                                   std::max(seen[k].first, seen[k - 1].first), earlier.entry));
                return;
            }
        }
        ResourceSetAccess::assign(out, std::move(groups));
    }

    void nodelist(const boost::json::value& v, ResourceSet& out) {
        const auto* list = array(v, "'nodelist'");
        if (list == nullptr)
            return;
        Hostlist hosts;
        for (std::size_t i = 0; i < list->size(); ++i) {
            PointerScope at(ptr_, i);
            const auto& item = (*list)[i];
            if (!item.is_string()) {
                report(Code::R_type, fmt::format("a nodelist entry must be a string, not {}",
                                                 support::describe(item.kind())));
                return;
            }
            auto parsed = Hostlist::parse(item.get_string());
            if (!parsed) {
                report(Code::R_hostlist,
                       fmt::format("'{}' is not a hostlist: {}", std::string(item.get_string()),
                                   parsed.error().message));
                return;
            }
            hosts.append(*parsed);
        }
        // An empty nodelist says the hosts are not known; any other must name each rank.
        // Counted only against ranks read whole: a bad rank is not also a nodelist error.
        const std::uint64_t named = hosts.count();
        if (named > 0 && !out.set_nodelist(std::move(hosts)) && ranks_known_)
            report(Code::R_nodelist_count,
                   fmt::format("nodelist names {} hosts, but R_lite has {} ranks", named,
                               out.count_ranks()));
    }

    void properties(const boost::json::value& v, ResourceSet& out) {
        const auto* props = object(v, "'properties'");
        if (props == nullptr)
            return;
        const IdSet all = out.ranks();
        for (const auto& [name, value] : *props) {
            PointerScope at(ptr_, name);
            if (!ResourceSet::valid_property_name(name)) {
                report(
                    Code::R_property_name,
                    fmt::format("'{}' is not a property name (UTF-8, none of ! & ' \" ^ ` | ( ))",
                                std::string(name)));
                continue;
            }
            auto ranks = idset(value, "property ranks");
            if (!ranks)
                continue;
            if (!all.includes(*ranks)) {
                if (!ranks_known_)
                    continue;
                report(Code::R_property_ranks,
                       fmt::format("property '{}' names ranks {} that R_lite does not have",
                                   std::string(name), ranks->without(all).format()));
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

Result<ResourceSet> resource_set_from_json(const boost::json::value& r) {
    Diagnostics diagnostics;
    ResourceSet set = RReader(diagnostics).read(r);
    if (diagnostics.has_errors())
        return Result<ResourceSet>(std::move(diagnostics));
    return {std::move(set), std::move(diagnostics)};
}

Result<ResourceSet> read_resource_set(std::string_view text, const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    if (!support::within_input_limit(text, limits, "R", diagnostics) ||
        !support::valid_utf8(text, Code::R_json_syntax, "R", diagnostics))
        return Result<ResourceSet>(std::move(diagnostics));
    boost::json::monotonic_resource memory;
    boost::json::error_code ec;
    const boost::json::value r = support::parse_json(text, ec, limits.effective_depth(), &memory);
    if (ec) {
        diagnostics.add(ec == boost::json::error::too_deep ? Code::limit_depth
                                                           : Code::R_json_syntax,
                        fmt::format("R is not valid JSON: {}", ec.message()));
        return Result<ResourceSet>(std::move(diagnostics));
    }
    auto result = resource_set_from_json(r);
    diagnostics.append(result.diagnostics());
    if (!result.ok())
        return Result<ResourceSet>(std::move(diagnostics));
    return {std::move(result).value(), std::move(diagnostics)};
}

} // namespace jobspec
