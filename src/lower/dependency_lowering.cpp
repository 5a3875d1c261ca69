#include "lower/dependency_lowering.hpp"

#include <algorithm>

#include "support/chars.hpp"
#include "support/python_numbers.hpp"

namespace jobspec::lower {

Dependency dependency_from_uri(syntax::DependencyAst ast) {
    Dependency d;
    // RFC 3986: a scheme is case-insensitive, lower case its canonical form (flux-core
    // writes it so).
    d.scheme = std::move(ast.scheme);
    std::transform(d.scheme.begin(), d.scheme.end(), d.scheme.begin(), support::ascii_lower);
    d.scheme_range = ast.scheme_range;
    d.value = ast.value.value_or(std::string());
    d.value_range =
        ast.value ? ast.value_range : SourceRange{ast.scheme_range.end, ast.scheme_range.end};
    // RFC 26 leaves an option's type open; flux-core writes numbers as numbers, and a
    // key given more than once as the list of its values.
    for (auto& o : ast.options) {
        boost::json::value value = support::python_number_or_text(o.value);
        const auto same = std::find_if(d.options.begin(), d.options.end(),
                                       [&](const DependencyOption& e) { return e.key == o.key; });
        if (same == d.options.end())
            d.options.push_back({std::move(o.key), std::move(value), o.key_range, o.value_range});
        else if (auto* list = same->value.if_array()) // a URI's own values are never lists
            list->push_back(std::move(value));
        else
            same->value = boost::json::array{std::move(same->value), std::move(value)};
    }
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
