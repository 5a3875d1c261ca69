#include "graphviz.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_support.hpp"

namespace jobspec::cli {

namespace {

/// A temporary file holding `text`, removed when this goes away.
class TempFile {
public:
    explicit TempFile(std::string_view text) {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/jobspec-XXXXXX";
        const int fd = mkstemp(path_.data());
        if (fd < 0) {
            path_.clear();
            return;
        }
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n <= 0)
                break;
            done += static_cast<std::size_t>(n);
        }
        ok_ = done == text.size();
        ::close(fd);
    }
    ~TempFile() {
        if (!path_.empty())
            ::unlink(path_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    bool ok() const noexcept { return ok_; }
    const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
    bool ok_ = false;
};

} // namespace

int write_svg(std::string_view dot_text, const std::string& path, Reporter& reporter) {
    const auto fail = [&](std::string message, std::string help = {}) {
        return reporter.usage(Code::io_unwritable, std::move(message), std::move(help));
    };
    const TempFile input(dot_text);
    if (!input.ok())
        return fail(std::string("cannot write a temporary file for dot: ") + std::strerror(errno));
    std::string dot = "dot", format = "-Tsvg", output = "-o" + path;
    std::string source = input.path();
    char* argv[] = {dot.data(), format.data(), output.data(), source.data(), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "dot", nullptr, nullptr, argv, environ);
    if (spawned == ENOENT)
        return fail("cannot draw " + path + ": Graphviz's 'dot' is not installed",
                    "apt-get install graphviz; or print the DOT text and render it elsewhere");
    if (spawned != 0)
        return fail(std::string("cannot run dot: ") + std::strerror(spawned));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return fail(std::string("cannot wait for dot: ") + std::strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fail("dot could not draw " + path);
    return exit_ok;
}

} // namespace jobspec::cli
