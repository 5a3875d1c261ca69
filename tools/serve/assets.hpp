// The playground's page and its files, built into the binary from tools/serve/web/ by
// embed_assets.py, so the server reads nothing from disk.
#pragma once

#include <string_view>

namespace jobspec::serve {

struct Asset {
    /// Where it is served: "/playground.js" (index.html also at "/").
    std::string_view path;
    std::string_view content_type;
    std::string_view body;
};

/// The file served at `path`, or null.
const Asset* find_asset(std::string_view path);

} // namespace jobspec::serve
