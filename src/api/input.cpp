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
    read.mode = static_cast<std::uint32_t>(st.st_mode);
    if (S_ISDIR(st.st_mode)) {
        read.error = EISDIR;
        return read;
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
            const ssize_t got = ::read(fd.get(), block, want);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                read.error = errno;
                return read;
            }
            if (got == 0)
                break;
            read.text.append(block, static_cast<std::size_t>(got));
        }
    } catch (const std::bad_alloc&) {
        read.text = std::string();
        read.error = ENOMEM;
        return read;
    }
    read.too_large = read.text.size() > max_bytes;
    // A regular file's size is known; a stream's is not, and is not read to find out.
    read.size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : read.text.size();
    return read;
}

} // namespace api

std::string_view input_name(std::string_view path) noexcept {
    return path == "-" ? std::string_view("<stdin>") : path;
}

Result<std::string> read_input(std::string_view path, const InputOptions& options) {
    const std::size_t limit = options.limits.max_input_bytes;
    api::BoundedRead read = api::read_bounded(path, limit);
    Diagnostics d;
    if (read.error != 0) {
        d.add(Code::io_unreadable,
              fmt::format("cannot {} '{}': {}", read.mode == 0 ? "open" : "read",
                          input_name(path), std::strerror(read.error)));
        return Result<std::string>(std::move(d));
    }
    if (read.too_large) {
        d.add(Code::limit_input_size,
              S_ISREG(read.mode)
                  ? fmt::format("{} is {} bytes long, more than the limit of {}", input_name(path),
                                read.size, limit)
                  : fmt::format("{} is longer than the limit of {} bytes", input_name(path), limit),
              Location{}, "raise the limit with --max-input-bytes (max-input-bytes in the C API)");
        return Result<std::string>(std::move(d));
    }
    if (!options.allow_empty && read.text.find_first_not_of(" \t\r\n") == std::string::npos) {
        d.add(Code::io_empty, fmt::format("{} is empty", input_name(path)));
        return Result<std::string>(std::move(d));
    }
    return std::move(read.text);
}

} // namespace jobspec
