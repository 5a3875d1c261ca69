// Sample R documents shared by the benchmarks.
#pragma once

#include <string>

#include "model/decoders.hpp"
#include <jobspec/emit.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/resource_set.hpp>

namespace bench {

/// R for n targets: 3 node types (in blocks), 5 properties, one compressed nodelist.
inline std::string mixed_r(std::uint64_t n) {
    jobspec::ResourceSet r;
    const std::uint64_t third = n / 3;
    r.add(jobspec::IdSet::range(0, third - 1), jobspec::IdSet::range(0, 47),
          jobspec::IdSet::range(0, 7));
    r.add(jobspec::IdSet::range(third, 2 * third - 1), jobspec::IdSet::range(0, 95), {});
    r.add(jobspec::IdSet::range(2 * third, n - 1), jobspec::IdSet::range(0, 63),
          jobspec::IdSet::range(0, 3));
    r.set_nodelist(*jobspec::model::decode_hostlist("node[0-" + std::to_string(n - 1) + "]"));
    r.set_property("ssd", jobspec::IdSet::range(0, n / 2));
    r.set_property("amd-mi50@gpu", jobspec::IdSet::range(0, third - 1));
    r.set_property("bigmem", jobspec::IdSet::range(third, 2 * third - 1));
    r.set_property("+debug", jobspec::IdSet::range(n - 16, n - 1));
    jobspec::IdSet odd;
    for (std::uint64_t i = 1; i < n; i += 64)
        odd.insert(i, i + 31 < n ? i + 31 : n - 1);
    r.set_property("rack-a", odd);
    return jobspec::to_json_text(jobspec::to_json_value(r));
}

/// R for 10,000 targets that are all different: every rank its own cores, gpus and host
/// name (no run of names compresses), about 600 KB.
inline std::string different_r() {
    std::string lite;
    std::string hosts;
    for (int i = 0; i < 10000; ++i) {
        if (i > 0) {
            lite += ',';
            hosts += ',';
        }
        lite += "{\"rank\":\"" + std::to_string(i) + "\",\"children\":{\"core\":\"0-" +
                std::to_string(8 + i) + "\",\"gpu\":\"" + std::to_string(i % 8) + "\"}}";
        hosts += "\"h" + std::to_string((i * 7919) % 10007) + "x" + std::to_string(i % 97) + "\"";
    }
    return "{\"version\":1,\"execution\":{\"R_lite\":[" + lite + "],\"nodelist\":[" + hosts +
           "],\"properties\":{\"xx\":\"0-4999\"}}}";
}

} // namespace bench
