#include "lower/workflow_lowering.hpp"

#include <set>

#include <fmt/format.h>

#include <jobspec/fluid.hpp>

#include "lower/dependency_lowering.hpp"
#include "model/decoders.hpp"
#include "support/json_pointer.hpp"
#include "syntax/dependency_parser.hpp"

namespace jobspec::lower {

namespace {

using support::JsonPointer;
using support::PointerScope;
using syntax::DocNode;

class WorkflowLowering {
public:
    WorkflowLowering(std::string_view text, Diagnostics& diagnostics,
                     std::vector<std::string>& pointers)
        : text_(text), diags_(diagnostics), pointers_(pointers) {}

    std::vector<WorkflowJob> jobs(const DocNode& root) {
        std::vector<WorkflowJob> out;
        if (!root.is_sequence()) {
            report(fmt::format("a workflow is a list of jobs, not {}", syntax::describe(root.kind())),
                   root.range);
            return out;
        }
        std::set<std::string, std::less<>> names;
        for (std::size_t i = 0; i < root.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            WorkflowJob job = this->job(root.elements()[i]);
            if (!job.name.empty() && !names.insert(job.name).second)
                report(fmt::format("two jobs are named '{}'", job.name), root.elements()[i].range);
            out.push_back(std::move(job));
        }
        return out;
    }

private:
    void report(std::string message, SourceRange range) {
        diags_.add(Code::dependency_workflow, std::move(message), Location{range, ptr_.str()});
    }

    const std::string* text_of(const DocNode& n, std::string_view key) {
        PointerScope at(ptr_, key);
        if (n.is_string())
            return &n.text();
        report(fmt::format("'{}' must be a string, not {}", key, syntax::describe(n.kind())),
               n.range);
        return nullptr;
    }

    WorkflowJob job(const DocNode& n) {
        WorkflowJob job;
        if (!n.is_mapping()) {
            report(fmt::format("a job is a dictionary, not {}", syntax::describe(n.kind())), n.range);
            return job;
        }
        if (n.find("name") == nullptr)
            report("job has no 'name'", n.range);
        for (const auto& m : n.members()) {
            if (m.key == "name") {
                if (const auto* name = text_of(m.value, "name"))
                    job.name = *name;
            } else if (m.key == "user") {
                if (const auto* user = text_of(m.value, "user"))
                    job.user = *user;
            } else if (m.key == "id") {
                if (const auto* id = text_of(m.value, "id")) {
                    PointerScope at(ptr_, "id");
                    auto decoded = model::decode_fluid(*id);
                    if (decoded)
                        job.id = decoded->id;
                    else
                        report(fmt::format("'id' is not a job id: {}", decoded.error().message),
                               m.value.range);
                }
            } else if (m.key == "dependencies") {
                PointerScope at(ptr_, "dependencies");
                dependencies(m.value, job.dependencies);
            } else {
                PointerScope at(ptr_, m.key);
                report(fmt::format("'{}' is not a job key (name, id, user, dependencies)", m.key),
                       m.key_range);
            }
        }
        return job;
    }

    void dependencies(const DocNode& n, std::vector<Dependency>& out) {
        if (!n.is_sequence()) {
            report(fmt::format("'dependencies' must be a list, not {}", syntax::describe(n.kind())),
                   n.range);
            return;
        }
        for (std::size_t i = 0; i < n.elements().size(); ++i) {
            PointerScope at(ptr_, i);
            const DocNode& e = n.elements()[i];
            if (e.is_string())
                uri(e, out);
            else if (e.is_mapping())
                object(e, out);
            else
                report(fmt::format("a dependency is a URI string or a dictionary, not {}",
                                   syntax::describe(e.kind())),
                       e.range);
        }
    }

    /// A URI string; its diagnostics point into the document when the text shows it as is.
    void uri(const DocNode& e, std::vector<Dependency>& out) {
        Diagnostics found;
        auto parsed = syntax::parse_dependency_uri(e.text(), Limits{}, found);
        // The URI as written starts at the node or, quoted, one byte after it.
        const auto written_at = [&](std::size_t at) {
            return e.range.known() && text_.substr(at, e.text().size()) == e.text();
        };
        const bool bare = written_at(e.range.begin);
        const bool verbatim = bare || written_at(e.range.begin + 1);
        const std::size_t shift = e.range.begin + (bare ? 0 : 1);
        const auto place = [&](SourceRange r) { return verbatim ? r.shifted(shift) : e.range; };
        for (auto d : found) {
            if (verbatim)
                d.shift(shift);
            else
                d = Diagnostic{d.code, d.severity, d.message, {e.range, d.location.pointer},
                               d.help, {}};
            d.location.pointer = ptr_.str() + d.location.pointer;
            diags_.add(std::move(d));
        }
        if (parsed) {
            Dependency d = dependency_from_uri(std::move(*parsed));
            // The scheme rules will report ranges in the document, like the syntax's.
            for (SourceRange* r : {&d.scheme_range, &d.value_range})
                *r = place(*r);
            for (auto& o : d.options) {
                o.key_range = place(o.key_range);
                o.value_range = place(o.value_range);
            }
            add(std::move(d), out);
        }
    }

    void add(Dependency d, std::vector<Dependency>& out) {
        pointers_.push_back(ptr_.str());
        out.push_back(std::move(d));
    }

    void object(const DocNode& e, std::vector<Dependency>& out) {
        Dependency d;
        for (const auto& m : e.members()) {
            const auto* value = text_of(m.value, m.key);
            if (value == nullptr)
                continue;
            if (m.key == "scheme") {
                d.scheme = *value;
                d.scheme_range = m.value.range;
            } else if (m.key == "value") {
                d.value = *value;
                d.value_range = m.value.range;
            } else {
                d.options.push_back(
                    {m.key, boost::json::value(*value), m.key_range, m.value.range});
            }
        }
        if (e.find("scheme") == nullptr || e.find("value") == nullptr) {
            report("a dependency needs 'scheme' and 'value'", e.range);
            return;
        }
        add(std::move(d), out);
    }

    std::string_view text_;
    Diagnostics& diags_;
    std::vector<std::string>& pointers_;
    JsonPointer ptr_;
};

} // namespace

std::vector<WorkflowJob> lower_workflow(const syntax::DocNode& root, std::string_view text,
                                        Diagnostics& diagnostics,
                                        std::vector<std::string>& pointers) {
    return WorkflowLowering(text, diagnostics, pointers).jobs(root);
}

} // namespace jobspec::lower
