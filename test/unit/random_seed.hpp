// The seed of a test's generated cases: the environment variable `variable` when set
// (to replay a run), else a random one, printed once with how to replay it.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <random>
#include <string>

namespace jobspec::test {

inline unsigned random_seed(const char* variable, const char* what) {
    const char* given = std::getenv(variable);
    const unsigned chosen = given != nullptr
                                ? static_cast<unsigned>(std::strtoul(given, nullptr, 10))
                                : std::random_device{}();
    MESSAGE(std::string(what) << " seed " << chosen << " (" << std::string(variable) << "="
                               << chosen << " replays it)");
    return chosen;
}

} // namespace jobspec::test
