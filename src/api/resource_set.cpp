// Reading R: JSON text or a JSON value, through the one JSON reader, lowered to the model.
#include <jobspec/resource_set.hpp>

#include "lower/resource_set_lowering.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec {

namespace {

/// The resource set of one R document tree; its diagnostics go to `diagnostics`.
Result<ResourceSet> read_tree(const syntax::DocNode& r, Diagnostics diagnostics) {
    ResourceSet set = lower::lower_resource_set(r, diagnostics);
    if (diagnostics.has_errors())
        return Result<ResourceSet>(std::move(diagnostics));
    return {std::move(set), std::move(diagnostics)};
}

} // namespace

Result<ResourceSet> resource_set_from_json(const boost::json::value& r) {
    return read_tree(syntax::DocNode::from_json(r), Diagnostics{});
}

Result<ResourceSet> read_resource_set(std::string_view text, const Limits& limits) {
    Diagnostics diagnostics(limits.max_diagnostics);
    const auto r = syntax::read_json(text, limits, diagnostics, lower::r_dialect);
    if (!r)
        return Result<ResourceSet>(std::move(diagnostics));
    return read_tree(*r, std::move(diagnostics));
}

Result<std::vector<ResourceSet>> read_resource_sets(std::string_view text, const Limits& limits) {
    std::vector<ResourceSet> sets;
    Diagnostics diagnostics(limits.max_diagnostics);
    std::size_t offset = 0;
    while ((offset = text.find_first_not_of(" \t\r\n", offset)) != std::string_view::npos) {
        Diagnostics found(limits.max_diagnostics);
        std::size_t used = 0;
        const auto r = syntax::read_json(text.substr(offset), limits, found, lower::r_dialect, &used);
        std::optional<ResourceSet> set;
        if (r) {
            auto read = read_tree(*r, std::move(found));
            found = read.diagnostics();
            if (read.ok())
                set = std::move(read).value();
        }
        for (Diagnostic d : found) {
            d.shift(offset);
            diagnostics.add(std::move(d));
        }
        if (!set)
            return Result<std::vector<ResourceSet>>(std::move(diagnostics));
        sets.push_back(std::move(*set));
        offset += used;
    }
    return {std::move(sets), std::move(diagnostics)};
}

} // namespace jobspec
