#include "http_server.hpp"

#include <array>
#include <atomic>
#include <csignal>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include "work_pool.hpp"

namespace jobspec::serve {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

/// Headers larger than this get 431: a request line and a few headers fit many times over.
constexpr std::uint32_t header_limit = 16 * 1024;
/// After an error reply with a body still coming, how long and how much of the rest is read
/// and dropped, so that closing does not reset the connection before the client has read
/// the reply (but a client sending 100 MB is not read to its end).
constexpr std::chrono::seconds linger_time{2};
constexpr std::size_t linger_bytes = std::size_t{1} << 20;

HttpResponse error_reply(unsigned status, std::string message) {
    HttpResponse r;
    r.status = status;
    std::string escaped;
    for (const char c : message)
        escaped += c == '"' || c == '\\' ? std::string{'\\', c} : std::string{c};
    r.body = "{\"error\":\"" + escaped + "\"}\n";
    return r;
}

} // namespace

struct HttpServer::Impl {
    Impl(ServerOptions o, Handler h)
        : options(std::move(o)), handler(std::move(h)), acceptor(io), signals(io), retry(io),
          pool(options.threads, options.queue) {}

    void accept();
    void shutdown();

    ServerOptions options;
    Handler handler;
    std::atomic<std::size_t> connections{0};
    /// Where lingering connections drop what they read (all on the one I/O thread).
    std::array<char, 16384> discard{};
    // Destroyed in reverse: the pool (and the sessions its waiting tasks hold) before the
    // io_context their sockets belong to.
    asio::io_context io{1};
    tcp::acceptor acceptor;
    asio::signal_set signals;
    asio::steady_timer retry;
    WorkPool pool;
};

namespace {

/// One connection: reads a request, hands it to the pool, writes the reply, and again
/// while the client keeps the connection alive. Every step has a deadline.
class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket socket, HttpServer::Impl& server)
        : stream_(std::move(socket)), server_(server) {
        ++server_.connections;
    }
    ~Session() { --server_.connections; }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    void start() { read_header(); }

    /// Answers at once and closes, without reading anything (too many connections).
    void refuse() { reply(error_reply(503, "too many connections; try again"), true, 11); }

private:
    void read_header() {
        parser_.emplace();
        parser_->header_limit(header_limit);
        parser_->body_limit(server_.options.max_body_bytes);
        stream_.expires_after(server_.options.request_timeout);
        http::async_read_header(stream_, buffer_, *parser_,
                                [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                    self->on_header(ec);
                                });
    }

    void on_header(beast::error_code ec) {
        if (ec)
            return fail(ec);
        auto& request = parser_->get();
        if (beast::iequals(request[http::field::expect], "100-continue")) {
            auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                            request.version());
            return http::async_write(
                stream_, *go_on,
                [self = shared_from_this(), go_on](beast::error_code e, std::size_t) {
                    if (e)
                        return self->close();
                    self->read_body();
                });
        }
        read_body();
    }

    void read_body() {
        http::async_read(stream_, buffer_, *parser_,
                         [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             if (ec)
                                 return self->fail(ec);
                             self->dispatch();
                         });
    }

    void fail(beast::error_code ec) {
        const unsigned version =
            parser_ && parser_->is_header_done() ? parser_->get().version() : 11;
        if (ec == http::error::body_limit)
            return reply(error_reply(413, "the request body is longer than the limit of " +
                                              std::to_string(server_.options.max_body_bytes) +
                                              " bytes (jobspec serve --max-input-bytes)"),
                         true, version);
        if (ec == http::error::header_limit)
            return reply(error_reply(431, "the request headers are too long"), true, version);
        if (ec.category() == http::make_error_code(http::error::bad_method).category() &&
            ec != http::error::end_of_stream && ec != http::error::partial_message)
            return reply(error_reply(400, "malformed HTTP request: " + ec.message()), true,
                         version);
        close();
    }

    void dispatch() {
        auto message = parser_->release();
        parser_.reset();
        auto request = std::make_shared<HttpRequest>();
        request->method = std::string(message.method_string());
        request->target = std::string(message.target());
        request->host = std::string(message[http::field::host]);
        request->content_type = std::string(message[http::field::content_type]);
        request->body = std::move(message.body());
        request->deadline = Clock::now() + server_.options.request_timeout;
        const bool close_after = !message.keep_alive();
        const unsigned version = message.version();
        const bool head = request->method == "HEAD";
        if (head)
            request->method = "GET";
        const bool queued = server_.pool.try_submit(
            [self = shared_from_this(), request, close_after, version, head] {
                HttpResponse response =
                    Clock::now() >= request->deadline
                        ? error_reply(503, "the server was too busy to answer in time; try again")
                        : self->server_.handler(*request);
                asio::post(self->stream_.get_executor(), [self, response = std::move(response),
                                                          close_after, version, head]() mutable {
                    self->reply(std::move(response), close_after, version, head);
                });
            });
        if (!queued)
            reply(error_reply(503, "the server is busy; try again"), close_after, version);
    }

    void reply(HttpResponse r, bool close_after, unsigned version, bool head = false) {
        auto response = std::make_shared<http::response<http::string_body>>(
            static_cast<http::status>(r.status), version);
        for (const auto& [name, value] : server_.options.headers)
            response->set(name, value);
        for (const auto& [name, value] : r.headers)
            response->set(name, value);
        if (r.status == 503)
            response->set(http::field::retry_after, "1");
        response->set(http::field::content_type, r.content_type);
        const std::size_t length = r.body.size();
        if (!head)
            response->body() = std::move(r.body);
        response->content_length(length);
        response->keep_alive(!close_after);
        stream_.expires_after(server_.options.request_timeout);
        http::async_write(
            stream_, *response,
            [self = shared_from_this(), response, close_after](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                if (close_after)
                    return self->linger();
                self->read_header();
            });
    }

    /// Stops sending, reads and drops what the client still sends for a little while,
    /// then closes: the client sees the reply, not a reset.
    void linger() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.expires_after(linger_time);
        drain();
    }

    void drain() {
        stream_.async_read_some(asio::buffer(server_.discard),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->drained_ += n;
                                    if (ec || self->drained_ > linger_bytes)
                                        return self->close();
                                    self->drain();
                                });
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().close(ignored);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_{2 * header_limit};
    std::optional<http::request_parser<http::string_body>> parser_;
    std::size_t drained_ = 0;
    HttpServer::Impl& server_;
};

} // namespace

void HttpServer::Impl::accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (!acceptor.is_open())
            return;
        if (ec) {
            // Out of descriptors, say: wait a little rather than spin.
            retry.expires_after(std::chrono::milliseconds(100));
            retry.async_wait([this](beast::error_code e) {
                if (!e)
                    accept();
            });
            return;
        }
        auto session = std::make_shared<Session>(std::move(socket), *this);
        if (connections > options.max_connections)
            session->refuse();
        else
            session->start();
        accept();
    });
}

void HttpServer::Impl::shutdown() {
    beast::error_code ignored;
    acceptor.close(ignored);
    signals.cancel(ignored);
    retry.cancel();
    io.stop();
}

HttpServer::HttpServer(ServerOptions options, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

HttpServer::~HttpServer() {
    impl_->pool.stop();
}

bool HttpServer::listen(std::string& error) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(impl_->options.address, ec);
    if (ec) {
        error = "'" + impl_->options.address + "' is not an IP address";
        return false;
    }
    const tcp::endpoint endpoint(address, impl_->options.port);
    auto& acceptor = impl_->acceptor;
    if (acceptor.open(endpoint.protocol(), ec); !ec)
        if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); !ec)
            if (acceptor.bind(endpoint, ec); !ec)
                acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        error = "cannot listen on " + impl_->options.address + ":" +
                std::to_string(impl_->options.port) + ": " + ec.message();
        return false;
    }
    return true;
}

std::uint16_t HttpServer::port() const {
    beast::error_code ec;
    const auto endpoint = impl_->acceptor.local_endpoint(ec);
    return ec ? 0 : endpoint.port();
}

void HttpServer::run() {
    auto& impl = *impl_;
    impl.signals.add(SIGINT);
    impl.signals.add(SIGTERM);
    impl.signals.async_wait([&impl](beast::error_code ec, int) {
        if (!ec)
            impl.shutdown();
    });
    impl.accept();
    impl.io.run();
    impl.pool.stop();
}

void HttpServer::stop() {
    asio::post(impl_->io, [impl = impl_.get()] { impl->shutdown(); });
}

} // namespace jobspec::serve
