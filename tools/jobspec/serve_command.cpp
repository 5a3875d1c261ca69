#include "serve_command.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <iostream>
#include <memory>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>

#include "http_server.hpp"
#include "site.hpp"

extern char** environ;

namespace jobspec::cli {

namespace {

struct ServeArgs {
    std::string bind = "127.0.0.1";
    std::uint16_t port = 8046;
    bool open = false;
    Limits limits;
    std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 8);
    std::size_t queue = 64;
    std::size_t max_connections = 1024;
    unsigned request_timeout = 10;
    unsigned dot_timeout = 5;
    std::string config;
};

/// Opens `url` in the desktop's browser; false when neither xdg-open nor sensible-browser
/// is installed. The browser's launcher is reaped in the background.
bool open_browser(const std::string& url) {
    for (const char* program : {"xdg-open", "sensible-browser"}) {
        std::string name = program, target = url;
        char* argv[] = {name.data(), target.data(), nullptr};
        pid_t pid = 0;
        if (posix_spawnp(&pid, program, nullptr, nullptr, argv, environ) != 0)
            continue;
        std::thread([pid] {
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        }).detach();
        return true;
    }
    return false;
}

/// Idle connections each hold a descriptor: allow as many as the hard limit lets us.
void raise_descriptor_limit(std::size_t wanted) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= wanted + 64)
        return;
    limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, wanted + 64);
    ::setrlimit(RLIMIT_NOFILE, &limit);
}

int run_serve(const ServeArgs& a, Reporter& out) {
    using namespace jobspec::serve;
    std::signal(SIGPIPE, SIG_IGN);
    raise_descriptor_limit(a.max_connections);
    SiteOptions site;
    site.api.limits = a.limits;
    site.api.dot_timeout = std::chrono::seconds(a.dot_timeout);
    site.api.config = a.config;
    ServerOptions options;
    options.address = a.bind;
    options.port = a.port;
    options.max_body_bytes = a.limits.max_input_bytes;
    options.request_timeout = std::chrono::seconds(a.request_timeout);
    options.threads = a.threads;
    options.queue = a.queue;
    options.max_connections = a.max_connections;
    options.headers = security_headers();
    // The handler reads `site` only after listen() has filled in the hosts.
    in6_addr any{};
    if (::inet_pton(AF_INET, a.bind.c_str(), &any) != 1 &&
        ::inet_pton(AF_INET6, a.bind.c_str(), &any) != 1)
        return out.usage(Code::usage_option_value,
                         "--bind: '" + a.bind + "' is not an IP address",
                         "give an address of this host, such as 127.0.0.1 or ::1 (0.0.0.0 for "
                         "every address)");
    HttpServer server(options, [&site](const HttpRequest& r) { return answer(r, site); });
    std::string error;
    if (!server.listen(error))
        return out.usage(Code::usage_option_value, error,
                         "choose another --port, or --port 0 for any free one");
    site.hosts = host_names(a.bind, server.port());
    const bool v6 = a.bind.find(':') != std::string::npos;
    const std::string url =
        "http://" + (v6 ? "[" + a.bind + "]" : a.bind) + ":" + std::to_string(server.port()) + "/";
    std::cout << "jobspec serve: the playground is at " << url << " (Ctrl-C stops it)" << std::endl;
    if (site.hosts.empty())
        std::cout << "jobspec serve: listening on every address: anyone who can reach this "
                     "machine can use it"
                  << std::endl;
    if (a.open && !open_browser(url))
        std::cout << "jobspec serve: no xdg-open or sensible-browser here; open " << url
                  << " in a browser" << std::endl;
    server.run();
    std::cout << "jobspec serve: stopped" << std::endl;
    return exit_ok;
}

} // namespace

Command add_serve_command(CLI::App& parent, Reporter& reporter) {
    auto a = std::make_shared<ServeArgs>();
    CLI::App* app = parent.add_subcommand(
        "serve",
        "Serve the playground: a local web page that compiles what you type as you type it");
    app->add_option("--bind", a->bind, "Address to listen on (0.0.0.0 or :: for every address)")
        ->capture_default_str();
    app->add_option("--port", a->port, "Port to listen on; 0 picks a free one")
        ->check(whole_number(0, 65535))
        ->capture_default_str();
    app->add_flag("--open", a->open, "Open the page in the desktop's browser (xdg-open)");
    app->add_option("--threads", a->threads, "Requests worked on at once")
        ->check(whole_number(1, 256))
        ->capture_default_str();
    app->add_option("--queue", a->queue, "Requests that may wait for a thread; more get 503")
        ->check(whole_number(0, 100000))
        ->capture_default_str();
    app->add_option("--max-connections", a->max_connections,
                    "Open connections; more are answered 503 and closed")
        ->check(whole_number(1, 1000000))
        ->capture_default_str();
    app->add_option("--request-timeout", a->request_timeout,
                    "Seconds a client has to send a request, and to read the reply")
        ->check(whole_number(1, 3600))
        ->capture_default_str();
    app->add_option("--dot-timeout", a->dot_timeout,
                    "Seconds Graphviz may take to draw one picture")
        ->check(whole_number(1, 600))
        ->capture_default_str();
    app->add_option("--config", a->config,
                    "Flux's configuration (a directory of *.toml files, or one file) whose "
                    "queues match finds a job's queue in, as jobspec match --config")
        ->check(CLI::ExistingPath);
    add_report_options(*app, reporter);
    add_limit_options(*app, a->limits);
    app->footer(R"(The page: pick a language (a shape, a jobspec with or without the V1 rules, a
constraint query in either dialect, a dependency URI, R), type, and see the canonical
JSON or YAML, every diagnostic underlined where it is with its explanation, the
tokens, the parse tree and the resource graph, and for a jobspec and an R whether it
fits. The page's address (its #fragment) holds everything typed, so a link to it shows
the same. The JSON API behind it (POST /api/v1/compile and others) is described in
docs/PLAYGROUND.md.

Requests larger than --max-input-bytes get 413; the page and its files are built into
this program, which reads no file but the --config files (at each match) and runs no
program but Graphviz's dot.

Examples:
  jobspec serve --open
  jobspec serve --port 0 --threads 4
  jobspec serve --config /etc/flux/system/conf.d   # match knows the instance's queues

Exit status: 0 after Ctrl-C (SIGINT) or SIGTERM, 2 when the address cannot be used.)");
    return Command{app, [a, &reporter] { return run_serve(*a, reporter); }};
}

} // namespace jobspec::cli
