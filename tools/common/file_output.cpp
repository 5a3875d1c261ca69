#include "file_output.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace jobspec::cli {

namespace {

std::string system_error() {
    return std::strerror(errno);
}

/// A new, empty file of ours in the directory of `path` (mkstemp: O_EXCL, mode 0600),
/// removed again unless kept.
class NewFileBeside {
public:
    explicit NewFileBeside(const std::string& path) {
        const std::size_t slash = path.rfind('/');
        name_ = (slash == std::string::npos ? "./" : path.substr(0, slash + 1)) +
                ".jobspec-XXXXXX";
        fd_ = ::mkstemp(name_.data());
        made_ = fd_ >= 0;
        if (!made_)
            error_ = fmt::format("cannot make a new file beside it: {}", system_error());
    }
    ~NewFileBeside() {
        if (fd_ >= 0)
            ::close(fd_);
        if (made_ && !kept_)
            ::unlink(name_.c_str());
    }
    NewFileBeside(const NewFileBeside&) = delete;
    NewFileBeside& operator=(const NewFileBeside&) = delete;

    const std::optional<std::string>& error() const noexcept { return error_; }
    int fd() const noexcept { return fd_; }

    /// Flushes and closes the file, then renames it to `path`; the reason when it cannot.
    std::optional<std::string> rename_to(const std::string& path) {
        const bool written = ::fsync(fd_) == 0;
        const bool closed = ::close(fd_) == 0;
        fd_ = -1;
        if (!written || !closed)
            return fmt::format("cannot write it: {}", system_error());
        if (::rename(name_.c_str(), path.c_str()) != 0)
            return fmt::format("cannot put it in place: {}", system_error());
        kept_ = true;
        return std::nullopt;
    }

private:
    std::string name_;
    int fd_ = -1;
    bool made_ = false;
    bool kept_ = false;
    std::optional<std::string> error_;
};

std::optional<std::string> write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fmt::format("cannot write it: {}", n < 0 ? system_error() : "no room");
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return std::nullopt;
}

mode_t process_umask() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

/// Why this user may not write the file `before` at `path`, or nothing. Root may write
/// any file, but like an editor leaves one that no one may write.
std::optional<std::string> unwritable(const std::string& path, const RegularFile& before) {
    if (::geteuid() == 0 ? (before.mode & 0222) != 0
                         : ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0)
        return std::nullopt;
    if ((before.mode & 0222) == 0)
        return fmt::format("it is read-only (mode {:04o}); make it writable first",
                           before.mode & 07777);
    return fmt::format("you may not write it (mode {:04o}, owner {}, group {})",
                       before.mode & 07777, before.owner, before.group);
}

} // namespace

std::optional<std::string> write_new_file_from(
    const std::string& path, const std::function<std::optional<std::string>(int fd)>& fill) {
    NewFileBeside file(path);
    if (file.error())
        return file.error();
    if (auto problem = fill(file.fd()))
        return problem;
    if (::fchmod(file.fd(), 0666 & ~process_umask()) != 0)
        return fmt::format("cannot set its mode: {}", system_error());
    return file.rename_to(path);
}

std::optional<std::string> write_new_file(const std::string& path, std::string_view text) {
    return write_new_file_from(path, [&](int fd) { return write_all(fd, text); });
}

std::optional<std::string> replace_regular_file(const std::string& path, const RegularFile& before,
                                                std::string_view text) {
    if (auto problem = unwritable(path, before))
        return problem;
    NewFileBeside file(path);
    if (file.error())
        return file.error();
    if (auto problem = write_all(file.fd(), text))
        return problem;
    // The owner first: changing it clears the set-user-ID bit, which the mode then restores.
    struct stat made {};
    if (::fstat(file.fd(), &made) != 0)
        return fmt::format("cannot read back the new file: {}", system_error());
    if ((made.st_uid != before.owner || made.st_gid != before.group) &&
        ::fchown(file.fd(), before.owner, before.group) != 0)
        return fmt::format("its owner and group ({}:{}) cannot be kept: {}", before.owner,
                           before.group, system_error());
    if (::fchmod(file.fd(), before.mode & 07777) != 0)
        return fmt::format("cannot keep its mode: {}", system_error());
    struct stat now {};
    if (::lstat(path.c_str(), &now) != 0 || !S_ISREG(now.st_mode) || now.st_nlink != 1 ||
        static_cast<std::uint64_t>(now.st_dev) != before.device ||
        static_cast<std::uint64_t>(now.st_ino) != before.inode)
        return std::string("it changed while it was being fixed; nothing was written");
    return file.rename_to(path);
}

} // namespace jobspec::cli
