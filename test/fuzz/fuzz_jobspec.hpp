// The body shared by the jobspec document fuzz targets: read, check, emit, render, and
// match against a small R in both dialects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/match.hpp>
#include <jobspec/render.hpp>
#include <jobspec/resource_set.hpp>

#include "fuzz_checks.hpp"

inline int fuzz_jobspec(const std::uint8_t* data, std::size_t size,
                        jobspec::DocumentFormat format) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool v1 : {false, true}) {
        jobspec::ReadOptions options;
        options.format = format;
        options.v1 = v1;
        // With v1, as the Flux plugins read: what an instance of 3 ranks cannot hold too.
        options.flux_instance = v1;
        options.flux_instance_size = v1 ? 3 : 0;
        auto result = jobspec::read_jobspec(text, options);
        // A plugin's verdict: one terminal-safe line within the bound, whatever the input.
        const std::string line =
            jobspec::render_line(result.diagnostics(), jobspec::flux_verdict_bytes);
        fuzz::terminal(line);
        if (line.size() > jobspec::flux_verdict_bytes || line.find('\n') != std::string::npos)
            std::abort();
        if (result.ok()) {
            const auto value = jobspec::to_json_value(result.value());
            fuzz::json(jobspec::to_json_text(value));
            fuzz::yaml(jobspec::to_yaml_text(value));
            fuzz::utf8(jobspec::to_dot(result.value()));
        }
        fuzz::terminal(jobspec::render_text(result.diagnostics(), text, {false, "fuzz"}));
        fuzz::json(jobspec::render_json(result.diagnostics(), text));
    }
    // Three nodes of 4 cores, two of them with 2 gpus: any request, or-slots too, is
    // matched or refused quickly, whatever its counts.
    jobspec::ResourceSet r;
    r.add(jobspec::IdSet::range(0, 1), jobspec::IdSet::range(0, 3), jobspec::IdSet::range(0, 1));
    r.add(jobspec::IdSet::range(2, 2), jobspec::IdSet::range(0, 3), {});
    for (const auto dialect : {jobspec::Dialect::rfc, jobspec::Dialect::fluxion}) {
        jobspec::ReadOptions options;
        options.format = format;
        options.dialect = dialect;
        auto result = jobspec::read_jobspec(text, options);
        if (!result.ok())
            continue;
        auto alloc = jobspec::match_jobspec(result.value(), r);
        if (alloc.ok())
            fuzz::json(jobspec::to_json_text(jobspec::to_json_value(alloc.value())));
        fuzz::terminal(jobspec::render_text(alloc.diagnostics(), text, {false, "fuzz"}));
    }
    return 0;
}
