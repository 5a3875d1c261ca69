// What `jobspec serve` answers: the page and its files, the API under /api/, and the
// headers that keep other sites from framing, scripting or reading it.
#pragma once

#include <string>
#include <vector>

#include "api.hpp"
#include "http_server.hpp"

namespace jobspec::serve {

struct SiteOptions {
    ApiOptions api;
    /// The Host headers accepted ("127.0.0.1:8046"); requests naming another host get 421,
    /// so a page on another site cannot reach the server through DNS rebinding. Empty:
    /// any host (when listening on every address).
    std::vector<std::string> hosts;
};

/// The Host values a browser sends for a server listening on `address`:`port`: the
/// address, and localhost too for a loopback address. Empty for a wildcard address.
std::vector<std::string> host_names(const std::string& address, unsigned port);

/// Headers for every response: Content-Security-Policy (only this server's own files,
/// no inline script, no framing), X-Frame-Options, X-Content-Type-Options,
/// Referrer-Policy and Cross-Origin-Opener-Policy.
Headers security_headers();

/// Answers one request.
HttpResponse answer(const HttpRequest& request, const SiteOptions& options);

} // namespace jobspec::serve
