// libFuzzer target: RFC 35 queries in both dialects; what compiles must read back as JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool plain : {false, true}) {
        jobspec::QueryOptions options;
        if (plain)
            options.default_operator = "name";
        auto c = jobspec::parse_constraint_query(text, options);
        fuzz::terminal(jobspec::render_text(c.diagnostics(), text));
        fuzz::json(jobspec::render_json(c.diagnostics(), text));
        if (!c.ok())
            continue;
        const auto json = jobspec::to_json_value(c.value());
        fuzz::json(jobspec::to_json_text(json));
        if (!plain) {
            auto back = jobspec::constraint_from_json(json);
            if (!back.ok() || !(back.value() == c.value()))
                std::abort();
        }
    }
    return 0;
}
