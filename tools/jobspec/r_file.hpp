// R read from a file named on a command line.
#pragma once

#include <optional>
#include <string>

#include <jobspec/resource_set.hpp>

#include "cli_support.hpp"

namespace jobspec::cli {

/// R from the file at `path` ("-": standard input), its problems reported under its
/// name; nothing (reported, `status` raised) when it does not read.
std::optional<ResourceSet> read_r_file(const std::string& path, const CommonOptions& common,
                                       Reporter& out, int& status);

} // namespace jobspec::cli
