// libFuzzer target: Flux configuration files -> R (`jobspec R parse-config`). The first
// byte picks how many files the input is cut into (at '\x00') and whether the first is
// JSON; every diagnostic must render, and R that is made must write and read back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/resource_config.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::size_t most = 1 + data[0] % 3;
    std::vector<jobspec::ConfigFile> files;
    for (std::size_t start = 0; start <= text.size() && files.size() < most;) {
        std::size_t end = files.size() + 1 == most ? text.size() : text.find('\0', start);
        end = std::min(end, text.size());
        const bool json = files.empty() && (data[0] & 0x80) != 0;
        files.push_back({json ? "f.json" : "f" + std::to_string(files.size()) + ".toml",
                         std::string(text.substr(start, end - start))});
        start = end + 1;
    }
    auto config = jobspec::read_resource_config(files);
    fuzz::terminal(jobspec::render_text(config.diagnostics(), ""));
    fuzz::json(jobspec::render_json(config.diagnostics(), ""));
    if (!config.ok() || !config.value().resources)
        return 0;
    const auto& r = *config.value().resources;
    const auto written = fuzz::json(jobspec::to_json_text(jobspec::to_json_value(r)));
    auto again = jobspec::read_resource_set(written, {.max_input_bytes = written.size() + 1});
    if (!again.ok() || jobspec::to_json_text(jobspec::to_json_value(again.value())) != written)
        std::abort();
    return 0;
}
