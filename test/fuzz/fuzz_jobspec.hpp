// The body shared by the jobspec document fuzz targets: read, check, emit, render.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>

#include "fuzz_checks.hpp"

inline int fuzz_jobspec(const std::uint8_t* data, std::size_t size,
                        jobspec::DocumentFormat format) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool v1 : {false, true}) {
        jobspec::ReadOptions options;
        options.format = format;
        options.v1 = v1;
        auto result = jobspec::read_jobspec(text, options);
        if (result.ok()) {
            const auto value = jobspec::to_json_value(result.value());
            fuzz::json(jobspec::to_json_text(value));
            fuzz::yaml(jobspec::to_yaml_text(value));
            fuzz::utf8(jobspec::to_dot(result.value()));
        }
        fuzz::terminal(jobspec::render_text(result.diagnostics(), text, {false, "fuzz"}));
        fuzz::json(jobspec::render_json(result.diagnostics(), text));
    }
    return 0;
}
