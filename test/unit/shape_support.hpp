// Helpers for shape tests. They return values so that each CHECK stands at the caller's line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>

namespace test {

/// The compact JSON of a shape (no trailing newline), or "error: CODE CODE ...".
inline std::string shape_json(std::string_view shape, const jobspec::ShapeOptions& options = {},
                              jobspec::CountStyle counts = jobspec::CountStyle::dict) {
    auto r = jobspec::compile_shape(shape, options);
    if (!r.ok()) {
        std::string out = "error:";
        for (const auto& d : r.diagnostics())
            out += " " + std::string(d.code_name());
        return out;
    }
    std::string text = jobspec::to_json_text(jobspec::to_json_value(r.value(), counts));
    text.pop_back();
    return text;
}

/// Every diagnostic of a shape as "code@column" (column counts bytes from 1), warnings
/// included unless `errors_only`.
inline std::vector<std::string> shape_diagnostics(std::string_view shape,
                                                  const jobspec::ShapeOptions& options = {},
                                                  bool errors_only = false) {
    std::vector<std::string> out;
    for (const auto& d : jobspec::compile_shape(shape, options).diagnostics()) {
        if (errors_only && d.severity != jobspec::Severity::error)
            continue;
        std::string s(d.code_name());
        if (d.location.range.known())
            s += "@" + std::to_string(d.location.range.begin + 1);
        out.push_back(s);
    }
    return out;
}

/// The first error as "code@column", or "" when there is none.
inline std::string first_error(std::string_view shape, const jobspec::ShapeOptions& options = {}) {
    auto all = shape_diagnostics(shape, options, true);
    return all.empty() ? std::string() : all.front();
}

} // namespace test
