// Writing a file the tools make or rewrite: always through a new file of their own beside
// it (mkstemp, O_EXCL), renamed into place, so that nothing planted at a fixed name (a
// symbolic link to another user's file, a FIFO) is ever written through.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <jobspec/input.hpp>

namespace jobspec::cli {

/// Writes `text` to `path` as a new file: made beside it with mode 0666 less the umask,
/// then renamed over whatever `path` named (a symbolic link there is replaced, never
/// followed). The reason, in words, when it cannot be written; then `path` is untouched
/// and nothing is left beside it.
std::optional<std::string> write_new_file(const std::string& path, std::string_view text);

/// As write_new_file, but what the new file holds is written by `fill` into the open
/// descriptor it is given (a program's standard output, say); `fill` returns the reason
/// it failed, or nothing.
std::optional<std::string> write_new_file_from(
    const std::string& path, const std::function<std::optional<std::string>(int fd)>& fill);

/// Replaces the regular file `before` (as read_regular_file read it from `path`) with
/// `text`, keeping its mode, owner and group. Refused, with the reason, when the file's
/// permissions do not let this user write it (root too: a file no one may write is left
/// alone, as editors leave it), when its owner or group cannot be kept, or when `path` no
/// longer names that same file with one link.
std::optional<std::string> replace_regular_file(const std::string& path, const RegularFile& before,
                                                std::string_view text);

} // namespace jobspec::cli
