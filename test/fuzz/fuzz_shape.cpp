// libFuzzer target: the whole shape pipeline, its emitters and the diagnostic renderers.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/shape.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto result = jobspec::compile_shape(text);
    if (result.ok()) {
        for (const auto counts : {jobspec::CountStyle::dict, jobspec::CountStyle::string}) {
            const auto value = jobspec::to_json_value(result.value(), counts);
            fuzz::json(jobspec::to_json_text(value, true));
            fuzz::yaml(jobspec::to_yaml_text(value));
        }
        fuzz::json(jobspec::to_json_text(result.value()));
        fuzz::utf8(jobspec::to_dot(result.value()));
    }
    fuzz::terminal(jobspec::render_text(result.diagnostics(), text, {true, "fuzz"}));
    fuzz::json(jobspec::render_json(result.diagnostics(), text, "fuzz"));
    return 0;
}
