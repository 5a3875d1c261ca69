#include "lower/dependency_lowering.hpp"

#include "support/python_numbers.hpp"

namespace jobspec::lower {

Dependency dependency_from_uri(syntax::DependencyAst ast) {
    Dependency d;
    d.scheme = std::move(ast.scheme);
    d.scheme_range = ast.scheme_range;
    d.value = ast.value.value_or(std::string());
    d.value_range =
        ast.value ? ast.value_range : SourceRange{ast.scheme_range.end, ast.scheme_range.end};
    // RFC 26 leaves an option's type open; flux-core writes numbers as numbers.
    for (auto& o : ast.options)
        d.options.push_back({std::move(o.key), support::python_number_or_text(o.value),
                             o.key_range, o.value_range});
    return d;
}

Dependency dependency_from_object(const syntax::DocNode& object) {
    Dependency d;
    for (const auto& m : object.members()) {
        if (m.key == "scheme" && m.value.is_string()) {
            d.scheme = m.value.text();
            d.scheme_range = m.value.range;
        } else if (m.key == "value" && m.value.is_string()) {
            d.value = m.value.text();
            d.value_range = m.value.range;
        } else if (m.key != "scheme" && m.key != "value") {
            d.options.push_back({m.key, m.value.to_json(), m.key_range, m.value.range});
        }
    }
    return d;
}

} // namespace jobspec::lower
