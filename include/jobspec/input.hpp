// Reading an input: a file, standard input, a pipe, a FIFO or a device, within a limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// How read_input treats what it reads.
struct InputOptions {
    Limits limits;
    /// Accept an input with nothing but whitespace in it (otherwise io.empty).
    bool allow_empty = false;
};

/// The whole text of the file at `path`, or of standard input when `path` is "-". Regular
/// files, pipes, FIFOs and character devices are read alike, at most
/// limits.max_input_bytes + 1 bytes, so /dev/zero or an endless pipe fails at once and
/// memory stays bounded. Fails with:
///   io.unreadable     the path is missing, a directory, not permitted, or a read fails
///                     ("cannot open 'x.yaml': No such file or directory")
///   limit.input-size  more than limits.max_input_bytes bytes
///   io.empty          nothing but whitespace, unless `allow_empty`
/// The diagnostics carry no source range: they are about the input as a whole.
JOBSPEC_API Result<std::string> read_input(std::string_view path, const InputOptions& options = {});

/// A regular file as read_regular_file found it: its text, and what it was then, so that
/// a program rewriting it can tell that the path still names the same file and keep its
/// owner and mode.
struct RegularFile {
    std::string text;
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint32_t mode = 0; ///< st_mode: the type and permission bits
    std::uint32_t owner = 0;
    std::uint32_t group = 0;
};

/// The file at `path`, which must be a regular file with one link, read as read_input
/// reads (within limits.max_input_bytes; io.empty unless `allow_empty`). It is opened
/// without following a symbolic link, without waiting (a FIFO is refused, never waited
/// on) and without becoming a controlling terminal. Besides read_input's errors, fails
/// with io.not-regular for a symbolic link, FIFO, socket, device or directory, or a file
/// with more than one hard link: "'job.sh' is a symbolic link (to '/home/a/.bashrc')".
/// Standard input ("-") is io.not-regular too.
JOBSPEC_API Result<RegularFile> read_regular_file(std::string_view path,
                                                  const InputOptions& options = {});

/// How diagnostics name an input read from `path`: the path itself, or "<stdin>" for "-".
JOBSPEC_API std::string_view input_name(std::string_view path) noexcept;

} // namespace jobspec
