// libFuzzer target: RFC 22 idsets; what parses must format, re-parse to itself and agree
// with the set operations.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jobspec/idset.hpp>

#include "fuzz_checks.hpp"
#include "model/decoders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto split = text.find('|');
    auto a = jobspec::model::decode_idset(text.substr(0, split));
    if (!a)
        return 0;
    auto again = jobspec::model::decode_idset(fuzz::utf8(a->format()));
    if (!again || *again != *a)
        std::abort();
    if (split == std::string_view::npos)
        return 0;
    auto b = jobspec::model::decode_idset(text.substr(split + 1));
    if (!b)
        return 0;
    const auto u = a->united(*b);
    const auto i = a->intersected(*b);
    const auto d = a->without(*b);
    if (!u.includes(*a) || !u.includes(*b) || !a->includes(i) || d.intersects(*b) ||
        d.united(i) != *a || a->intersects(*b) != !i.empty())
        std::abort();
    return 0;
}
