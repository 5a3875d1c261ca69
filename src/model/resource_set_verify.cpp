// Verifying one rank's resources as found against those it should have (`flux R verify`).
#include <jobspec/resource_set_model.hpp>

#include <fmt/format.h>

#include "model/resource_set_build.hpp"

namespace jobspec {

namespace {

/// The host of `rank` in `set`, or "" when the set does not know it.
std::string host_of(const ResourceSet& set, std::uint64_t rank) {
    const auto position = set.ranks().position(rank);
    if (!position || set.nodelist().empty())
        return {};
    return set.nodelist().nth(*position).value_or("");
}

const ResourceSet::Group* group_of(const ResourceSet& set, std::uint64_t rank) {
    for (const auto& g : set.groups())
        if (g.ranks.contains(rank))
            return &g;
    return nullptr;
}

} // namespace

Diagnostics ResourceSet::verify(const ResourceSet& actual) const {
    Diagnostics d;
    if (actual.count_ranks() != 1) {
        d.add(Code::R_verify_rank,
              fmt::format("verify checks one rank, but the second resource set has {}",
                          actual.count_ranks()));
        return d;
    }
    const std::uint64_t rank = actual.ranks().first();
    const Group* want = group_of(*this, rank);
    if (want == nullptr) {
        d.add(Code::R_verify_rank,
              fmt::format("rank {} is not in the expected resource set", rank));
        return d;
    }
    const Group& got = actual.groups().front();
    const std::string expected_host = host_of(*this, rank);
    const std::string host = host_of(actual, rank);
    if (!expected_host.empty() && !host.empty() && host != expected_host)
        d.add(Code::R_verify_hostname,
              fmt::format("rank {} is host '{}', expected '{}'", rank, host, expected_host));
    const std::string name = host.empty() ? expected_host : host;
    const std::string where =
        name.empty() ? fmt::format("rank {}", rank) : fmt::format("rank {} ({})", rank, name);
    const std::string missing =
        model::children_text(want->cores.without(got.cores), want->gpus.without(got.gpus));
    if (!missing.empty())
        d.add(Code::R_verify, fmt::format("{} is missing {}", where, missing));
    const std::string extra =
        model::children_text(got.cores.without(want->cores), got.gpus.without(want->gpus));
    if (!extra.empty())
        d.add(Code::R_verify_extra, fmt::format("{} has extra {}", where, extra));
    return d;
}

} // namespace jobspec
