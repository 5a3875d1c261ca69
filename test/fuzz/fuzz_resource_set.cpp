// libFuzzer target: R documents; what reads must write and read back to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/resource_set.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = jobspec::read_resource_set(text);
    fuzz::terminal(jobspec::render_text(r.diagnostics(), text));
    fuzz::json(jobspec::render_json(r.diagnostics(), text));
    if (!r.ok())
        return 0;
    const auto written = fuzz::json(jobspec::to_json_text(jobspec::to_json_value(r.value())));
    auto again = jobspec::read_resource_set(written);
    if (!again.ok() || jobspec::to_json_text(jobspec::to_json_value(again.value())) != written)
        std::abort();
    (void)r.value().summary();
    (void)r.value().remapped();
    if (!r.value().includes(r.value()) || !r.value().without(r.value()).empty())
        std::abort();
    return 0;
}
