#include "sema/canonical_jobspec.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include <boost/json/serialize.hpp>
#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>

#include "sema/canonical_resources.hpp"
#include "support/json_kinds.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::sema {

namespace {

using boost::json::kind;
using support::as_double;
using support::describe;
using support::is_number;
using support::JsonPointer;
using support::PointerScope;

class JobspecChecker {
public:
    JobspecChecker(const Jobspec& jobspec, Diagnostics& diagnostics)
        : js_(jobspec), diags_(diagnostics) {}

    void run() {
        check_resources(js_.resources, "/resources", diags_);
        collect_slots(js_.resources);
        {
            PointerScope at(ptr_, "tasks");
            for (std::size_t i = 0; i < js_.tasks.size(); ++i) {
                PointerScope task_at(ptr_, i);
                task(js_.tasks[i]);
            }
        }
        PointerScope at(ptr_, "attributes");
        if (const auto* system = js_.attributes.if_contains("system")) {
            PointerScope system_at(ptr_, "system");
            if (system->is_object())
                system_attributes(system->get_object());
        }
    }

private:
    /// Reports at the current pointer, with the range read for it if there is one.
    void report(Code code, std::string message, std::string help = {}) {
        report_at(code, std::move(message), locate(), std::move(help));
    }
    void report_at(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help));
    }
    SourceRange locate() const {
        const auto it = js_.locations.find(ptr_.str());
        return it == js_.locations.end() ? SourceRange{} : it->second;
    }

    /// Whether `v` has kind `k`; reports jobspec.key-type naming `what` when not.
    bool expect(const boost::json::value& v, kind k, std::string_view what) {
        if (v.kind() == k || (k == kind::double_ && is_number(v)) ||
            (k == kind::int64 && v.is_uint64()))
            return true;
        report(Code::jobspec_key_type,
               fmt::format("{} must be {}, not {}", what, describe(k), describe(v.kind())));
        return false;
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
            report_at(Code::jobspec_unknown_slot,
                      fmt::format("task slot '{}' is not the label of any slot", *t.slot),
                      t.slot_range,
                      labels.empty() ? "the resources have no labelled slot"
                                     : "slot labels here: " + labels);
        }
        if (t.count.kind == TaskCount::Kind::per_resource && slot != slots_.end() &&
            !declares(slot->second->with, t.count.resource_type)) {
            PointerScope at(ptr_, "count", "per_resource", "type");
            report_at(
                Code::jobspec_per_resource_type,
                fmt::format("slot '{}' declares no '{}' resource", *t.slot, t.count.resource_type),
                t.count_range);
        }
        if (t.attributes) {
            PointerScope at(ptr_, "attributes");
            for (const auto& [key, value] : *t.attributes) {
                PointerScope key_at(ptr_, key);
                if (key == "environment")
                    environment(value);
                else
                    expect(value, kind::string,
                           fmt::format("task attribute '{}'", std::string(key)));
            }
        }
    }

    void environment(const boost::json::value& v) {
        if (!expect(v, kind::object, "'environment'"))
            return;
        for (const auto& [name, value] : v.get_object()) {
            PointerScope at(ptr_, name);
            if (!value.is_string() && !value.is_null())
                report(Code::jobspec_key_type,
                       fmt::format("environment variable '{}' must be a string or null, not {}",
                                   std::string(name), describe(value.kind())));
        }
    }

    void non_negative(const boost::json::value& v, std::string_view what) {
        if (!expect(v, kind::double_, what))
            return;
        if (as_double(v) < 0)
            report(Code::jobspec_attribute_value,
                   fmt::format("{} must be at least 0, not {}", what, as_double(v)));
    }

    void system_attributes(const boost::json::object& system) {
        for (const auto& [key, value] : system) {
            PointerScope at(ptr_, key);
            const std::string name(key);
            const std::string what = fmt::format("'{}'", name);
            if (name == "duration" || name == "preemptible-after") {
                non_negative(value, what);
            } else if (name == "environment") {
                environment(value);
            } else if (name == "cwd" || name == "queue" || name == "bank" || name == "project") {
                expect(value, kind::string, what);
            } else if (name == "dependencies") {
                dependencies(value);
            } else if (name == "constraints") {
                constraint(value);
            } else if (name == "job") {
                if (expect(value, kind::object, what))
                    for (const auto& [field, field_value] : value.get_object()) {
                        PointerScope field_at(ptr_, field);
                        expect(field_value, kind::string,
                               fmt::format("job attribute '{}'", std::string(field)));
                    }
            } else if (name == "shell") {
                if (expect(value, kind::object, what))
                    if (const auto* options = value.get_object().if_contains("options")) {
                        PointerScope options_at(ptr_, "options");
                        expect(*options, kind::object, "shell 'options'");
                    }
            } else if (name == "files") {
                expect(value, kind::object, what);
            } else {
                report(Code::jobspec_unknown_system_attribute,
                       fmt::format("system attribute '{}' is not one RFC 14 defines; it is kept",
                                   name));
            }
        }
    }

    void dependencies(const boost::json::value& v) {
        if (!expect(v, kind::array, "'dependencies'"))
            return;
        if (v.get_array().empty())
            report(Code::jobspec_dependency, "'dependencies' must not be empty",
                   "leave the attribute out when there are no dependencies (RFC 26)");
        for (std::size_t i = 0; i < v.get_array().size(); ++i) {
            PointerScope at(ptr_, i);
            const auto& d = v.get_array()[i];
            if (!expect(d, kind::object, "a dependency"))
                continue;
            bool well_formed = true;
            for (const auto key : {"scheme", "value"}) {
                const auto* field = d.get_object().if_contains(key);
                if (field == nullptr) {
                    report(Code::jobspec_dependency, fmt::format("dependency has no '{}'", key));
                    well_formed = false;
                } else if (!field->is_string()) {
                    PointerScope field_at(ptr_, key);
                    report(Code::jobspec_dependency,
                           fmt::format("dependency '{}' must be a string, not {}", key,
                                       describe(field->kind())));
                    well_formed = false;
                }
            }
            if (well_formed)
                check_dependency(dependency(d.get_object()), DependencyContext::document, false,
                                 ptr_.str(), diags_);
        }
    }

    /// A dependency object as the scheme rules see it, with the ranges it was read at.
    Dependency dependency(const boost::json::object& o) {
        const auto range_of = [&](std::string_view key) {
            PointerScope at(ptr_, key);
            return locate();
        };
        Dependency d;
        for (const auto& [key, value] : o) {
            const std::string text =
                value.is_string() ? std::string(value.get_string()) : boost::json::serialize(value);
            if (key == "scheme") {
                d.scheme = text;
                d.scheme_range = range_of(key);
            } else if (key == "value") {
                d.value = text;
                d.value_range = range_of(key);
            } else {
                d.options.push_back({std::string(key), text, {}, range_of(key)});
            }
        }
        return d;
    }

    /// RFC 31, read as constraint_from_json reads it, at the ranges the document gives.
    void constraint(const boost::json::value& v) {
        for (auto d : constraint_from_json(v, ptr_.str()).diagnostics()) {
            if (const auto it = js_.locations.find(d.location.pointer); it != js_.locations.end())
                d.location.range = it->second;
            diags_.add(std::move(d));
        }
    }

    const Jobspec& js_;
    Diagnostics& diags_;
    JsonPointer ptr_;
    std::map<std::string, const ResourceVertex*, std::less<>> slots_;
};

} // namespace

void check_canonical(const Jobspec& jobspec, Diagnostics& diagnostics) {
    JobspecChecker(jobspec, diagnostics).run();
}

} // namespace jobspec::sema
