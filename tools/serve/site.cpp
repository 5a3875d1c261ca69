#include "site.hpp"

#include <algorithm>
#include <string_view>

#include "assets.hpp"

namespace jobspec::serve {

namespace {

HttpResponse text_reply(unsigned status, std::string body) {
    HttpResponse r;
    r.status = status;
    r.content_type = "text/plain; charset=utf-8";
    r.body = std::move(body);
    return r;
}

} // namespace

std::vector<std::string> host_names(const std::string& address, unsigned port) {
    if (address == "0.0.0.0" || address == "::")
        return {};
    const std::string suffix = ":" + std::to_string(port);
    const bool v6 = address.find(':') != std::string::npos;
    std::vector<std::string> hosts{(v6 ? "[" + address + "]" : address) + suffix};
    if (address.starts_with("127.") || address == "::1")
        hosts.push_back("localhost" + suffix);
    return hosts;
}

Headers security_headers() {
    return {
        {"Content-Security-Policy",
         "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
         "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
         "frame-ancestors 'none'"},
        {"X-Frame-Options", "DENY"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"Cross-Origin-Opener-Policy", "same-origin"},
        {"Cross-Origin-Resource-Policy", "same-origin"},
    };
}

HttpResponse answer(const HttpRequest& request, const SiteOptions& options) {
    if (!options.hosts.empty() && !request.host.empty() &&
        std::find(options.hosts.begin(), options.hosts.end(), request.host) == options.hosts.end())
        return text_reply(421, "jobspec serve answers requests for " + options.hosts.front() +
                                   ", not for " + request.host + "\n");
    const std::string_view path =
        std::string_view(request.target).substr(0, request.target.find('?'));
    if (path.starts_with("/api/"))
        return answer_api(request, options.api);
    if (request.method != "GET") {
        HttpResponse r = text_reply(405, "the page takes GET\n");
        r.headers.emplace_back("Allow", "GET");
        return r;
    }
    const Asset* asset = find_asset(path);
    if (asset == nullptr)
        return text_reply(404, "no such page: the playground is at /\n");
    HttpResponse r;
    r.content_type = std::string(asset->content_type);
    r.body = std::string(asset->body);
    r.headers.emplace_back("Cache-Control", "no-cache");
    return r;
}

} // namespace jobspec::serve
