#include "sema/canonical_jobspec.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include <jobspec/dependency_rules.hpp>
#include <jobspec/suggest.hpp>

#include "sema/canonical_resources.hpp"
#include "support/json_kinds.hpp"
#include "support/json_pointer.hpp"
#include "support/fix_its.hpp"

namespace jobspec::sema {

namespace {

using support::describe;
using support::JsonPointer;
using support::PointerScope;

class JobspecChecker {
public:
    JobspecChecker(const Jobspec& jobspec, Diagnostics& diagnostics)
        : js_(jobspec), diags_(diagnostics), dialect_(jobspec.dialect) {}

    void run() {
        check_resources(js_.resources, "/resources", diags_, dialect_);
        collect_slots(js_.resources);
        if (dialect_ == Dialect::rfc) {
            PointerScope at(ptr_, "tasks");
            for (std::size_t i = 0; i < js_.tasks.size(); ++i) {
                PointerScope task_at(ptr_, i);
                task(js_.tasks[i]);
            }
        }
        if (js_.attributes.system) {
            PointerScope at(ptr_, "attributes", "system");
            for (const auto& a : js_.attributes.system->entries) {
                PointerScope key_at(ptr_, a.key);
                system_attribute(a);
            }
        }
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }

    void collect_slots(const ResourceList& list) {
        for (const auto& v : list) {
            if (v.is_slot())
                if (auto label = v.label())
                    slots_.emplace(std::string(*label), &v);
            collect_slots(v.with);
        }
    }

    static bool declares(const ResourceList& list, std::string_view type) {
        for (const auto& v : list)
            if (v.type == type || declares(v.with, type))
                return true;
        return false;
    }

    void task(const Task& t) {
        const auto slot = t.slot ? slots_.find(*t.slot) : slots_.end();
        if (t.slot && slot == slots_.end()) {
            std::string labels;
            for (const auto& [label, vertex] : slots_)
                labels += (labels.empty() ? "'" : ", '") + label + "'";
            PointerScope at(ptr_, "slot");
            report(Code::jobspec_unknown_slot,
                   fmt::format("task slot '{}' is not the label of any slot", *t.slot),
                   t.slot_range,
                   (labels.empty() ? "the resources have no labelled slot"
                                   : "slot labels here: " + labels) +
                       " (valid in the Fluxion dialect, which does not match task slots "
                       "with labels)");
        }
        if (t.count.kind == TaskCount::Kind::per_resource && slot != slots_.end() &&
            !declares(slot->second->with, t.count.resource_type)) {
            PointerScope at(ptr_, "count", "per_resource", "type");
            report(
                Code::jobspec_per_resource_type,
                fmt::format("slot '{}' declares no '{}' resource", *t.slot, t.count.resource_type),
                t.count_range);
        }
    }

    void system_attribute(const Attribute& a) {
        if (const auto* n = std::get_if<Number>(&a.value)) {
            if (n->to_double() < 0)
                report(Code::jobspec_attribute_value,
                       fmt::format("'{}' must be at least 0, not {}", a.key, n->to_double()),
                       a.value_range);
        } else if (const auto* dependencies = std::get_if<std::vector<Dependency>>(&a.value)) {
            for (std::size_t i = 0; i < dependencies->size(); ++i) {
                PointerScope at(ptr_, i);
                check_dependency((*dependencies)[i], DependencyContext::document, false, ptr_.str(),
                                 diags_);
            }
        } else if (system_attribute_type(a.key) == 0 && !is_rfc14_attribute(a.key)) {
            const auto near = closest(a.key, system_attribute_names());
            // At the key where it is known (a document), else at the value.
            diags_.add(Code::jobspec_unknown_system_attribute,
                       fmt::format("system attribute '{}' is not one RFC 14 defines; it is kept",
                                   a.key),
                       Location{a.key_range.known() ? a.key_range : a.value_range, ptr_.str()},
                       near ? fmt::format("did you mean '{}'?", *near) : std::string(),
                       near ? support::replace_word(a.key_range, a.key, *near)
                            : std::vector<FixIt>{});
        }
    }

    /// The system attributes RFC 14 names that have no type of their own here.
    static bool is_rfc14_attribute(std::string_view key) {
        return key == "job" || key == "shell" || key == "files";
    }

    const Jobspec& js_;
    Diagnostics& diags_;
    Dialect dialect_;
    JsonPointer ptr_;
    std::map<std::string, const ResourceVertex*, std::less<>> slots_;
};

} // namespace

void check_canonical(const Jobspec& jobspec, Diagnostics& diagnostics) {
    JobspecChecker(jobspec, diagnostics).run();
}

} // namespace jobspec::sema
