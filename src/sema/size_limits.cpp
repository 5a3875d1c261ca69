#include "sema/size_limits.hpp"

#include <fmt/format.h>

#include "support/json_pointer.hpp"

namespace jobspec::sema {

namespace {

using support::JsonPointer;
using support::PointerScope;

/// Counts vertices until one is past the limit; that one is reported.
class VertexCounter {
public:
    VertexCounter(std::size_t max, std::string_view pointer, Diagnostics& diagnostics)
        : max_(max), pointer_(pointer), diagnostics_(diagnostics) {}

    /// False once the limit is passed.
    bool list(const ResourceList& resources) {
        for (std::size_t i = 0; i < resources.size(); ++i) {
            const PointerScope at(pointer_, i);
            if (!vertex(resources[i]))
                return false;
        }
        return true;
    }

private:
    bool vertex(const ResourceVertex& v) {
        if (++seen_ > max_) {
            diagnostics_.add(Code::limit_vertices,
                             fmt::format("more than {} resource vertices", max_),
                             Location{v.range, pointer_.str()},
                             "raise the limit (--max-vertices) if so many are meant");
            return false;
        }
        const PointerScope at(pointer_, "with");
        return list(v.with);
    }

    std::size_t max_;
    std::size_t seen_ = 0;
    JsonPointer pointer_;
    Diagnostics& diagnostics_;
};

/// The number of terms, or max + 1 once there are more than max.
std::size_t terms(const Constraint& c, std::size_t max, std::size_t counted = 0) {
    counted += 1 + c.values().size();
    for (const auto& child : c.children()) {
        if (counted > max)
            break;
        counted = terms(child, max, counted);
    }
    return counted > max ? max + 1 : counted;
}

} // namespace

void check_vertex_count(const ResourceList& resources, std::size_t max, std::string_view pointer,
                        Diagnostics& diagnostics) {
    VertexCounter(max, pointer, diagnostics).list(resources);
}

void check_constraint_terms(const Constraint& constraint, std::size_t max, const Location& where,
                            Diagnostics& diagnostics) {
    if (terms(constraint, max) > max)
        diagnostics.add(Code::limit_constraint_terms,
                        fmt::format("the constraint has more than {} terms", max), where,
                        "raise the limit (--max-constraint-terms) if so many are meant");
}

void check_sizes(const Jobspec& jobspec, const Limits& limits, Diagnostics& diagnostics) {
    check_vertex_count(jobspec.resources, limits.max_vertices, "/resources", diagnostics);
    if (!jobspec.attributes.system)
        return;
    const Attribute* constraints = jobspec.attributes.system->find("constraints");
    if (constraints != nullptr)
        if (const auto* c = std::get_if<Constraint>(&constraints->value))
            check_constraint_terms(
                *c, limits.max_constraint_terms,
                Location{constraints->value_range, "/attributes/system/constraints"}, diagnostics);
}

} // namespace jobspec::sema
