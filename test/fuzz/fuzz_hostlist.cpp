// libFuzzer target: RFC 29 hostlists; encoding re-parses to the same hosts, and set
// operations agree with each other.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jobspec/hostlist.hpp>

#include "fuzz_checks.hpp"
#include "model/decoders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto split = text.find('|');
    auto a = jobspec::model::decode_hostlist(text.substr(0, split));
    if (!a || a->count() > 4096)
        return 0;
    auto again = jobspec::model::decode_hostlist(fuzz::utf8(a->encode()));
    if (!again || again->expand() != a->expand())
        std::abort();
    for (std::uint64_t i = 0; i < a->count(); i += 7) {
        const auto host = a->nth(i);
        if (!host || !a->find(*host) || *a->find(*host) > i)
            std::abort();
    }
    if (split == std::string_view::npos)
        return 0;
    auto b = jobspec::model::decode_hostlist(text.substr(split + 1));
    if (!b || b->count() > 4096)
        return 0;
    // The identities of sets hold for lists without repeats.
    const auto ua = a->unique();
    const auto ub = b->unique();
    const auto u = ua.united(ub);
    const auto i = ua.intersected(ub);
    const auto d = ua.without(ub);
    if (d.united(i) != ua || u.count() != d.count() + ub.count())
        std::abort();
    return 0;
}
