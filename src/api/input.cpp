// read_input: one bounded reader for every kind of input the tools and the C API take.
#include <jobspec/input.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace jobspec {

namespace {

Result<std::string> unreadable(std::string_view verb, std::string_view path, int error) {
    Diagnostics d;
    d.add(Code::io_unreadable,
          fmt::format("cannot {} '{}': {}", verb, input_name(path), std::strerror(error)));
    return Result<std::string>(std::move(d));
}

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

std::string_view input_name(std::string_view path) noexcept {
    return path == "-" ? std::string_view("<stdin>") : path;
}

Result<std::string> read_input(std::string_view path, const InputOptions& options) {
    const bool standard_input = path == "-";
    const std::string owned_path(path);
    Descriptor fd(standard_input ? STDIN_FILENO : ::open(owned_path.c_str(), O_RDONLY | O_CLOEXEC),
                  !standard_input);
    if (fd.get() < 0)
        return unreadable("open", path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return unreadable("read", path, errno);
    if (S_ISDIR(st.st_mode))
        return unreadable("read", path, EISDIR);

    // Read at most one byte past the limit: enough to know the input is too long.
    const std::size_t limit = options.limits.max_input_bytes;
    const std::size_t cap = limit == SIZE_MAX ? limit : limit + 1;
    std::string text;
    if (S_ISREG(st.st_mode) && st.st_size > 0)
        text.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), cap));
    char block[65536];
    while (text.size() < cap) {
        const std::size_t want = std::min(sizeof block, cap - text.size());
        const ssize_t got = ::read(fd.get(), block, want);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return unreadable("read", path, errno);
        }
        if (got == 0)
            break;
        text.append(block, static_cast<std::size_t>(got));
    }
    Diagnostics d;
    if (text.size() > limit) {
        // A regular file's size is known; a stream's is not, and is not read to find out.
        d.add(Code::limit_input_size,
              S_ISREG(st.st_mode)
                  ? fmt::format("{} is {} bytes long, more than the limit of {}", input_name(path),
                                st.st_size, limit)
                  : fmt::format("{} is longer than the limit of {} bytes", input_name(path), limit),
              Location{}, "raise the limit with --max-input-bytes (max-input-bytes in the C API)");
        return Result<std::string>(std::move(d));
    }
    if (!options.allow_empty && text.find_first_not_of(" \t\r\n") == std::string::npos) {
        d.add(Code::io_empty, fmt::format("{} is empty", input_name(path)));
        return Result<std::string>(std::move(d));
    }
    return text;
}

} // namespace jobspec
