// libFuzzer target: dependency URIs, their JSON, and their diagnostics.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool allow : {false, true}) {
        auto result = jobspec::parse_dependency(text, {allow, {}});
        if (result.ok())
            fuzz::json(jobspec::to_json_text(jobspec::to_json_value(result.value())));
        fuzz::terminal(jobspec::render_text(result.diagnostics(), text));
        fuzz::json(jobspec::render_json(result.diagnostics(), text));
    }
    return 0;
}
