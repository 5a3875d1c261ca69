// libFuzzer target: R built from `jobspec R encode`'s values, one per line: ranks, cores
// and gpus (idsets), hosts (a hostlist), then property specs NAME[:RANKS]. What is built
// must write and read back to itself, and survive the set operations.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/resource_set.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> fields;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        fields.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    fields.resize(std::max<std::size_t>(fields.size(), 4));
    auto ranks = jobspec::IdSet::parse(fields[0]);
    auto cores = jobspec::IdSet::parse(fields[1]);
    auto gpus = jobspec::IdSet::parse(fields[2]);
    auto hosts = jobspec::Hostlist::parse(fields[3]);
    if (!ranks || !cores || !gpus || !hosts)
        return 0;
    jobspec::ResourceSet r;
    if (!r.add(ranks.value(), cores.value(), gpus.value()))
        std::abort();  // the first add cannot meet a rank twice
    if (!r.set_nodelist(hosts.value()))
        return 0;
    for (std::size_t i = 4; i < fields.size(); ++i) {
        const auto colon = fields[i].rfind(':');
        auto on = colon == std::string_view::npos
                      ? jobspec::Result<jobspec::IdSet>(r.ranks())
                      : jobspec::IdSet::parse(fields[i].substr(colon + 1));
        if (on)
            (void)r.set_property(fields[i].substr(0, colon), on.value());
    }
    const auto written = fuzz::json(jobspec::to_json_text(jobspec::to_json_value(r)));
    auto again = jobspec::read_resource_set(written, {.max_input_bytes = written.size() + 1});
    if (!again.ok() || jobspec::to_json_text(jobspec::to_json_value(again.value())) != written)
        std::abort();
    (void)r.summary();
    if (!r.includes(r) || !r.without(r).empty() || !r.united(r).includes(r))
        std::abort();
    return 0;
}
