// A small HTTP/1.1 server that is safe to leave running: idle and slow clients cost a socket,
// not a thread; requests are bounded in size and time; work runs on a bounded pool.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jobspec::serve {

using Headers = std::vector<std::pair<std::string, std::string>>;

/// A whole request, read before the handler sees it.
struct HttpRequest {
    std::string method;
    /// The request target as sent: a path and maybe a query ("/api/v1/compile").
    std::string target;
    std::string host;
    std::string content_type;
    std::string body;
    /// When the reply must be ready; work that cannot finish by then should give up.
    std::chrono::steady_clock::time_point deadline;
};

struct HttpResponse {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body;
    Headers headers;
};

struct ServerOptions {
    std::string address = "127.0.0.1";
    /// 0 picks a free port (see HttpServer::port).
    std::uint16_t port = 0;
    /// Larger bodies get 413: by Content-Length before any of the body is read, and while
    /// reading a body sent without one.
    std::size_t max_body_bytes = std::size_t{1} << 20;
    /// How long a client has to send a whole request (from connecting, or from the end of
    /// the previous reply) and to read the reply; the handler's deadline is as far from
    /// the end of the request.
    std::chrono::milliseconds request_timeout{10000};
    /// Threads running the handler, and requests that may wait for one; past both, 503.
    std::size_t threads = 2;
    std::size_t queue = 64;
    /// Open connections past this are answered 503 and closed at once.
    std::size_t max_connections = 4096;
    /// Sent with every response (security headers).
    Headers headers;
};

using Handler = std::function<HttpResponse(const HttpRequest&)>;

/// Serves `handler` on one address. Malformed requests get 400, oversized ones 413 or
/// 431, requests beyond the pool's bound 503; a client too slow for the time limit is
/// disconnected. HEAD is answered as GET without the body.
class HttpServer {
public:
    HttpServer(ServerOptions options, Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds and listens. False, with `error` saying why, when the address cannot be used.
    bool listen(std::string& error);
    /// The port listened on (the one chosen when options.port was 0).
    std::uint16_t port() const;
    /// Serves until SIGINT or SIGTERM arrives or stop() is called; then closes the
    /// listener and every connection, and waits for the handlers still running.
    void run();
    /// Makes run() return; safe from any thread.
    void stop();

    /// The server's insides, known only to http_server.cpp.
    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace jobspec::serve
