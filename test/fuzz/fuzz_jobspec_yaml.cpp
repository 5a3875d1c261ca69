// libFuzzer target: jobspec documents read as YAML.
#include "fuzz_jobspec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz_jobspec(data, size, jobspec::DocumentFormat::yaml);
}
