// read_input: one bounded reader for every kind of input the tools and the C API take.
#include <jobspec/input.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "api/bounded_read.hpp"

namespace jobspec {

namespace {

/// Closes a descriptor this reader opened (never standard input).
class Descriptor {
public:
    explicit Descriptor(int fd, bool owned) : fd_(fd), owned_(owned) {}
    ~Descriptor() {
        if (owned_ && fd_ >= 0)
            ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const noexcept { return fd_; }

private:
    int fd_;
    bool owned_;
};

} // namespace

namespace api {

namespace {

/// Reads the open descriptor `fd`, whose fstat is `st`, into `read`, at most max_bytes + 1
/// bytes.
void read_descriptor(int fd, const struct stat& st, std::size_t max_bytes, BoundedRead& read) {
    read.mode = static_cast<std::uint32_t>(st.st_mode);
    if (S_ISDIR(st.st_mode)) {
        read.error = EISDIR;
        return;
    }
    // Read at most one byte past the limit: enough to know the input is too long.
    const std::size_t cap = max_bytes == SIZE_MAX ? max_bytes : max_bytes + 1;
    // A limit raised past the memory there is ends the read as the system's refusal.
    try {
        if (S_ISREG(st.st_mode) && st.st_size > 0)
            read.text.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), cap));
        char block[65536];
        while (read.text.size() < cap) {
            const std::size_t want = std::min(sizeof block, cap - read.text.size());
            const ssize_t got = ::read(fd, block, want);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                read.error = errno;
                return;
            }
            if (got == 0)
                break;
            read.text.append(block, static_cast<std::size_t>(got));
        }
    } catch (const std::bad_alloc&) {
        read.text = std::string();
        read.error = ENOMEM;
        return;
    }
    read.too_large = read.text.size() > max_bytes;
    // A regular file's size is known; a stream's is not, and is not read to find out.
    read.size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : read.text.size();
}

} // namespace

BoundedRead read_bounded(std::string_view path, std::size_t max_bytes) {
    BoundedRead read;
    const bool standard_input = path == "-";
    const std::string owned_path(path);
    Descriptor fd(standard_input ? STDIN_FILENO : ::open(owned_path.c_str(), O_RDONLY | O_CLOEXEC),
                  !standard_input);
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) {
        read.error = errno;
        return read;
    }
    read_descriptor(fd.get(), st, max_bytes, read);
    return read;
}

} // namespace api

std::string_view input_name(std::string_view path) noexcept {
    return path == "-" ? std::string_view("<stdin>") : path;
}

namespace {

/// What went wrong with `read`, as read_input reports it (empty when nothing did).
Diagnostics read_problems(const api::BoundedRead& read, std::string_view path,
                          const InputOptions& options) {
    const std::size_t limit = options.limits.max_input_bytes;
    Diagnostics d;
    if (read.error != 0) {
        d.add(Code::io_unreadable,
              fmt::format("cannot {} '{}': {}", read.mode == 0 ? "open" : "read",
                          input_name(path), std::strerror(read.error)));
    } else if (read.too_large) {
        d.add(Code::limit_input_size,
              S_ISREG(read.mode)
                  ? fmt::format("{} is {} bytes long, more than the limit of {}", input_name(path),
                                read.size, limit)
                  : fmt::format("{} is longer than the limit of {} bytes", input_name(path), limit),
              Location{}, "raise the limit with --max-input-bytes (max-input-bytes in the C API)");
    } else if (!options.allow_empty &&
               read.text.find_first_not_of(" \t\r\n") == std::string::npos) {
        d.add(Code::io_empty, fmt::format("{} is empty", input_name(path)));
    }
    return d;
}

/// What a file that is not a regular one is, in words.
std::string_view kind_of(mode_t mode) {
    return S_ISLNK(mode)    ? "a symbolic link"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "not a regular file";
}

Result<RegularFile> not_regular(std::string message) {
    Diagnostics d;
    d.add(Code::io_not_regular, std::move(message), Location{},
          "only a regular file with one link is read here: give the file itself");
    return Result<RegularFile>(std::move(d));
}

/// Where the symbolic link at `path` points, as text (empty when it cannot be read).
std::string link_target(const std::string& path) {
    char target[4096];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target);
    return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

} // namespace

Result<std::string> read_input(std::string_view path, const InputOptions& options) {
    api::BoundedRead read = api::read_bounded(path, options.limits.max_input_bytes);
    Diagnostics d = read_problems(read, path, options);
    if (!d.empty())
        return Result<std::string>(std::move(d));
    return std::move(read.text);
}

Result<RegularFile> read_regular_file(std::string_view path, const InputOptions& options) {
    if (path == "-")
        return not_regular("standard input is not a file");
    const std::string owned_path(path);
    // O_NONBLOCK: a FIFO opens at once, and is then refused by its type.
    Descriptor fd(::open(owned_path.c_str(),
                         O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY),
                  true);
    struct stat st {};
    if (fd.get() < 0 && errno == ELOOP && ::lstat(owned_path.c_str(), &st) == 0 &&
        S_ISLNK(st.st_mode)) {
        const std::string target = link_target(owned_path);
        return not_regular(target.empty()
                               ? fmt::format("'{}' is a symbolic link", path)
                               : fmt::format("'{}' is a symbolic link (to '{}')", path, target));
    }
    api::BoundedRead read;
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) {
        read.error = errno;
        return Result<RegularFile>(read_problems(read, path, options));
    }
    if (!S_ISREG(st.st_mode))
        return not_regular(fmt::format("'{}' is {}", path, kind_of(st.st_mode)));
    if (st.st_nlink != 1)
        return not_regular(fmt::format("'{}' has {} hard links; a new file in its place would "
                                       "part it from the others",
                                       path, st.st_nlink));
    // A regular file is read as usual: waiting is never needed.
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0)
        ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    api::read_descriptor(fd.get(), st, options.limits.max_input_bytes, read);
    Diagnostics d = read_problems(read, path, options);
    if (!d.empty())
        return Result<RegularFile>(std::move(d));
    RegularFile out;
    out.text = std::move(read.text);
    out.device = static_cast<std::uint64_t>(st.st_dev);
    out.inode = static_cast<std::uint64_t>(st.st_ino);
    out.mode = static_cast<std::uint32_t>(st.st_mode);
    out.owner = static_cast<std::uint32_t>(st.st_uid);
    out.group = static_cast<std::uint32_t>(st.st_gid);
    return out;
}

} // namespace jobspec
