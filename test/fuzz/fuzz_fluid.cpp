// libFuzzer target: FLUID decoding; whatever decodes must re-encode and decode to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jobspec/fluid.hpp>

#include "fuzz_checks.hpp"
#include "model/decoders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto decoded = jobspec::model::decode_fluid(text);
    if (!decoded)
        return 0;
    for (const auto encoding :
         {jobspec::FluidEncoding::dec, jobspec::FluidEncoding::hex, jobspec::FluidEncoding::dothex,
          jobspec::FluidEncoding::kvs, jobspec::FluidEncoding::f58, jobspec::FluidEncoding::words,
          jobspec::FluidEncoding::emoji}) {
        auto again =
            jobspec::model::decode_fluid(fuzz::utf8(jobspec::encode_fluid(decoded->id, encoding)));
        if (!again || again->id != decoded->id)
            std::abort();
    }
    return 0;
}
