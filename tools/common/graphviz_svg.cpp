#include "graphviz_svg.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace jobspec::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// A pipe whose ends close themselves; both ends close-on-exec until dup2'd in the child.
/// Only the server's end is non-blocking: dot's end must block, or dot, started before
/// its input is written, reads "no data yet" as an empty graph and draws nothing.
class Pipe {
public:
    /// `server_end`: 0 when the server reads, 1 when it writes.
    explicit Pipe(int server_end) {
        if (::pipe2(fds_.data(), O_CLOEXEC) != 0 ||
            ::fcntl(fds_[server_end], F_SETFL, O_NONBLOCK) != 0) {
            close_read();
            close_write();
        }
    }
    ~Pipe() {
        close_read();
        close_write();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;

    bool ok() const noexcept { return fds_[0] >= 0; }
    int read_end() const noexcept { return fds_[0]; }
    int write_end() const noexcept { return fds_[1]; }
    void close_read() { close_end(0); }
    void close_write() { close_end(1); }

private:
    void close_end(int i) {
        if (fds_[i] >= 0)
            ::close(fds_[i]);
        fds_[i] = -1;
    }
    std::array<int, 2> fds_{-1, -1};
};

std::string first_line(const std::string& text) {
    const auto end = text.find('\n');
    return text.substr(0, end == std::string::npos ? text.size() : end);
}

/// Starts dot with the pipes as its standard input, output and error; 0 on failure with
/// `error` set.
pid_t spawn_dot(const Pipe& in, const Pipe& out, const Pipe& err, int& error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in.read_end(), STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out.write_end(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write_end(), STDERR_FILENO);
    // The server ignores SIGPIPE and handles SIGINT and SIGTERM; dot gets the defaults.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t signals;
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attributes, &signals);
    sigaddset(&signals, SIGPIPE);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &signals);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::string dot = "dot", format = "-Tsvg";
    char* argv[] = {dot.data(), format.data(), nullptr};
    pid_t pid = 0;
    error = posix_spawnp(&pid, "dot", &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return error == 0 ? pid : 0;
}

} // namespace

Picture render_svg(std::string_view dot_text, std::chrono::milliseconds timeout,
                   std::size_t max_output) {
    Pipe in(1), out(0), err(0);
    if (!in.ok() || !out.ok() || !err.ok())
        return {{}, std::string("cannot make a pipe for dot: ") + std::strerror(errno)};
    int error = 0;
    const pid_t pid = spawn_dot(in, out, err, error);
    if (pid == 0)
        return {{},
                error == ENOENT ? "Graphviz's 'dot' is not installed (apt-get install graphviz)"
                                : std::string("cannot run dot: ") + std::strerror(error)};
    in.close_read();
    out.close_write();
    err.close_write();

    const auto deadline = Clock::now() + timeout;
    std::string svg, complaint;
    std::size_t written = 0;
    std::string failure;
    if (dot_text.empty())
        in.close_write();
    while (out.read_end() >= 0 || err.read_end() >= 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) {
            failure = "dot took longer than " + std::to_string(timeout.count()) + " ms";
            break;
        }
        std::array<pollfd, 3> fds{{{in.write_end(), POLLOUT, 0},
                                   {out.read_end(), POLLIN, 0},
                                   {err.read_end(), POLLIN, 0}}};
        if (::poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0) {
            if (errno == EINTR)
                continue;
            failure = std::string("cannot wait for dot: ") + std::strerror(errno);
            break;
        }
        if (fds[0].revents != 0) {
            const ssize_t n =
                ::write(in.write_end(), dot_text.data() + written, dot_text.size() - written);
            if (n > 0)
                written += static_cast<std::size_t>(n);
            if ((n < 0 && errno != EAGAIN) || written == dot_text.size())
                in.close_write();
        }
        // Reads what a pipe has; past `cap` bytes the rest is read and dropped.
        const auto drain = [](Pipe& pipe, const pollfd& fd, std::string& into, std::size_t cap) {
            if (fd.revents == 0)
                return;
            char block[65536];
            const ssize_t n = ::read(pipe.read_end(), block, sizeof block);
            if (n > 0 && into.size() <= cap)
                into.append(block, static_cast<std::size_t>(n));
            else if (n == 0 || (n < 0 && errno != EAGAIN))
                pipe.close_read();
        };
        drain(out, fds[1], svg, max_output);
        drain(err, fds[2], complaint, 4096);
        if (svg.size() > max_output) {
            failure = "dot's picture is larger than " + std::to_string(max_output) + " bytes";
            break;
        }
    }
    if (!failure.empty())
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!failure.empty())
        return {{}, failure};
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return {{}, "dot failed" + (complaint.empty() ? "" : ": " + first_line(complaint))};
    return {std::move(svg), {}};
}

} // namespace jobspec::cli
