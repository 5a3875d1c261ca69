#include "r_file.hpp"

#include <algorithm>

namespace jobspec::cli {

std::optional<ResourceSet> read_r_file(const std::string& path, const CommonOptions& common,
                                       Reporter& out, int& status) {
    const auto text = out.read(path, common.limits, status);
    if (!text)
        return std::nullopt;
    auto r = read_resource_set(*text, common.limits);
    if (status = std::max(status, out.report(r.diagnostics(), *text, path)); status != exit_ok)
        return std::nullopt;
    return std::move(r).value();
}

} // namespace jobspec::cli
