// The one way jobspec reads a file or standard input: bounded, whatever the file is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jobspec::api {

/// What reading a path gave: its bytes, or why not.
struct BoundedRead {
    std::string text;
    /// st_mode of what was opened (0 when it could not be).
    std::uint32_t mode = 0;
    /// st_size for a regular file, else the bytes read.
    std::uint64_t size = 0;
    /// errno when the path could not be opened or read (EISDIR for a directory), else 0.
    int error = 0;
    /// More than `max_bytes` were there: `text` holds max_bytes + 1 of them.
    bool too_large = false;
};

/// The file at `path`, or standard input for "-": regular files, pipes, FIFOs and
/// devices alike, reading at most max_bytes + 1 bytes, so that /dev/zero or an endless
/// pipe ends at once with memory bounded.
BoundedRead read_bounded(std::string_view path, std::size_t max_bytes);

} // namespace jobspec::api
