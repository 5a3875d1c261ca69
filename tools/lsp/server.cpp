#include "server.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <jobspec/diagnostic.hpp>
#include <jobspec/document_check.hpp>
#include <jobspec/text.hpp>
#include <jobspec/version.hpp>

#include "features.hpp"
#include "messages.hpp"
#include "positions.hpp"

namespace jobspec::cli::lsp {

namespace json = boost::json;

namespace {

/// How long no message must come before changed documents are checked: a burst of edits
/// (a paste, a search-and-replace, a client replaying its changes) is checked once, at
/// its end (docs/EDITORS.md).
constexpr std::chrono::milliseconds quiet_period{20};

constexpr std::size_t max_uri_bytes = 64 * 1024;
/// Documents kept open at once: each holds up to --max-input-bytes, so that a client that
/// opens without closing cannot make the server grow without bound.
constexpr std::size_t max_open_documents = 256;

json::object position_json(Position p) {
    return {{"line", p.line}, {"character", p.character}};
}

/// The file name in a URI ("file:///home/me/job.sh" -> "job.sh"), percent-decoded.
std::string uri_name(std::string_view uri) {
    uri = uri.substr(0, uri.find_first_of("?#"));
    uri = uri.substr(uri.find_last_of("/:") == std::string_view::npos ? 0
                                                                      : uri.find_last_of("/:") + 1);
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        const auto hex = [](char c) {
            return c >= '0' && c <= '9'   ? c - '0'
                   : c >= 'a' && c <= 'f' ? c - 'a' + 10
                   : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                          : -1;
        };
        if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
            out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

/// A snippet of text for a title: short, on one line.
std::string snippet(std::string_view text) {
    std::string out;
    for (const char c : text.substr(0, 32))
        out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
    if (text.size() > 32) {
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
            out.pop_back();
        if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0)
            out.pop_back();
        out += "...";
    }
    return out;
}

struct Document {
    std::string name;
    std::string language;
    std::string text;
    std::int64_t version = 0;
    std::optional<DocumentKind> kind;
    /// The text is longer than the limit: what is kept is its first limit + 1 bytes.
    bool over_limit = false;
    /// An edit could not be applied (the server refused its message): the text is not
    /// the editor's until it sends the whole text again.
    bool stale = false;
    /// The diagnostics the client has are not those of this version.
    bool dirty = true;
    std::optional<Diagnostics> diagnostics;
    std::optional<LineIndex> lines;

    void changed() {
        diagnostics.reset();
        lines.reset();
        dirty = true;
    }
};

class Server {
public:
    Server(MessageWriter& out, const ServerOptions& options) : out_(out), options_(options) {}

    void handle(const json::value& message);
    /// Sends the diagnostics of every document changed since they were last sent.
    void publish_changed();
    /// Whether a document changed since it was last checked.
    bool unchecked() const {
        for (const auto& [uri, d] : documents_)
            if (d.dirty)
                return true;
        return false;
    }
    /// A message was refused unread: an edit in it may be lost, so no document's text is
    /// trusted until the editor sends it whole again.
    void message_refused() {
        for (auto& [uri, d] : documents_) {
            d.stale = true;
            d.changed();
        }
    }
    void send(const json::value& message) {
        if (!out_.send(message))
            gone_ = true;
    }
    /// Tells the client something it cannot be answered: window/logMessage, `type` 1
    /// error, 2 warning.
    void log(int type, std::string_view message) {
        send(notification(
            "window/logMessage",
            json::object{{"type", type}, {"message", fmt::format("jobspec lsp: {}", message)}}));
    }

    bool finished() const { return exited_ || gone_; }
    int status() const { return state_ == State::shut_down && !gone_ ? 0 : 1; }

private:
    enum class State { uninitialized, running, shut_down };

    void request(Method method, std::string_view name, const json::value& id,
                 const json::object& params);
    void notify(Method method, const json::object& params);

    json::value initialize(const InitializeParams& params);
    void did_open(const DidOpenParams& params);
    void did_change(const DidChangeParams& params);
    void did_close(std::string_view uri);
    json::value hover(const PositionParams& params);
    json::value completion(const PositionParams& params);
    json::value code_action(const CodeActionParams& params);

    Document& document(std::string_view uri) {
        const auto found = documents_.find(uri);
        if (found == documents_.end())
            throw InvalidParams("the document is not open");
        return found->second;
    }
    void set_text(Document& d, std::string text) {
        d.text = std::move(text);
        d.over_limit = d.text.size() > options_.limits.max_input_bytes;
        if (d.over_limit)
            d.text.resize(options_.limits.max_input_bytes + 1);
        d.stale = false;
    }
    const Diagnostics& diagnostics(Document& d);
    const LineIndex& lines(Document& d) {
        if (!d.lines)
            d.lines.emplace(d.text);
        return *d.lines;
    }
    /// The LSP range of bytes [begin, end) of the document.
    json::object range_json(Document& d, std::size_t begin, std::size_t end) {
        const LineIndex& index = lines(d);
        return {{"start", position_json(index.position(d.text, begin, encoding_))},
                {"end", position_json(index.position(d.text, std::max(begin, end), encoding_))}};
    }
    /// Whether a diagnostic points into the document (not another text), with a range.
    static bool located(const Diagnostic& d) {
        return d.location.source == nullptr && d.location.range.known();
    }
    json::object diagnostic_json(Document& d, const Diagnostic& diagnostic);
    json::array fix_edits(Document& d, const Diagnostic& diagnostic);
    void publish(const std::string& uri, Document& d);

    MessageWriter& out_;
    ServerOptions options_;
    State state_ = State::uninitialized;
    bool exited_ = false;
    bool gone_ = false;
    PositionEncoding encoding_ = PositionEncoding::utf16;
    std::map<std::string, Document, std::less<>> documents_;
};

void Server::handle(const json::value& message) {
    const json::value null;
    const json::object* o = message.if_object();
    if (o == nullptr)
        return send(error_response(null, error_code::invalid_request,
                                   message.is_array() ? "batches of messages are not supported"
                                                      : "a message must be a JSON object"));
    const json::value* id = o->if_contains("id");
    if (id != nullptr && !id->is_string() && !id->is_int64() && !id->is_uint64())
        return send(
            error_response(null, error_code::invalid_request, "'id' must be a number or a string"));
    const json::value* method = o->if_contains("method");
    if (method == nullptr) {
        if (id != nullptr && (o->contains("result") || o->contains("error")))
            return; // a response: the server asks nothing, so it expects none
        return send(error_response(id ? *id : null, error_code::invalid_request,
                                   "a request needs a 'method'"));
    }
    const json::value* version = o->if_contains("jsonrpc");
    const bool valid = method->is_string() && version != nullptr && version->is_string() &&
                       version->get_string() == "2.0";
    const json::value* params = o->if_contains("params");
    if (params != nullptr && params->is_null())
        params = nullptr; // some clients write "params": null for none
    const json::object empty;
    const json::object* p = params == nullptr ? &empty : params->if_object();
    if (!valid || (params != nullptr && p == nullptr && !params->is_array())) {
        if (id != nullptr)
            send(error_response(*id, error_code::invalid_request,
                                "not a JSON-RPC 2.0 request (a 'jsonrpc' of \"2.0\", a 'method' "
                                "string and 'params' an object or array)"));
        return;
    }
    const std::string_view name = method->get_string();
    try {
        if (id != nullptr)
            request(method_of(name), name, *id, p != nullptr ? *p : empty);
        else
            notify(method_of(name), p != nullptr ? *p : empty);
    } catch (const InvalidParams& e) {
        if (id != nullptr)
            send(error_response(*id, error_code::invalid_params, e.what()));
        else
            log(1, fmt::format("{}: {}", snippet(name), e.what()));
    } catch (const std::exception& e) {
        const std::string what =
            fmt::format("{} failed: {}", snippet(name), to_valid_utf8(e.what()));
        if (id != nullptr)
            send(error_response(*id, error_code::internal_error, what));
        else
            log(1, what);
    }
}

void Server::request(Method method, std::string_view name, const json::value& id,
                     const json::object& params) {
    if (method == Method::initialize) {
        if (state_ != State::uninitialized)
            return send(error_response(id, error_code::invalid_request,
                                       "the server is already initialized"));
        auto result = initialize(read_initialize(params));
        state_ = State::running;
        return send(response(id, std::move(result)));
    }
    if (state_ == State::uninitialized)
        return send(error_response(id, error_code::server_not_initialized,
                                   "the server is not initialized yet"));
    if (state_ == State::shut_down)
        return send(error_response(id, error_code::invalid_request,
                                   "the server is shutting down: only 'exit' is accepted"));
    switch (method) {
    case Method::shutdown:
        state_ = State::shut_down;
        return send(response(id, nullptr));
    case Method::hover:
        return send(response(id, hover(read_position_params(params))));
    case Method::completion:
        return send(response(id, completion(read_position_params(params))));
    case Method::code_action:
        return send(response(id, code_action(read_code_action(params))));
    default:
        return send(error_response(id, error_code::method_not_found,
                                   fmt::format("the server has no method '{}'", snippet(name))));
    }
}

void Server::notify(Method method, const json::object& params) {
    if (method == Method::exit) {
        exited_ = true;
        return;
    }
    if (state_ != State::running)
        return; // before initialize, or after shutdown: dropped
    switch (method) {
    case Method::did_open:
        return did_open(read_did_open(params));
    case Method::did_change:
        return did_change(read_did_change(params));
    case Method::did_close:
        return did_close(read_document_uri(params));
    default:
        return; // the others need nothing
    }
}

json::value Server::initialize(const InitializeParams& params) {
    // The cheapest encoding the client offers: bytes are what the library counts.
    encoding_ = params.offers_utf8 ? PositionEncoding::utf8 : PositionEncoding::utf16;
    json::object capabilities{
        {"positionEncoding", encoding_name(encoding_)},
        {"textDocumentSync", json::object{{"openClose", true}, {"change", 2}}},
        {"codeActionProvider", json::object{{"codeActionKinds", json::array{"quickfix"}}}},
        {"hoverProvider", true},
        {"completionProvider",
         json::object{{"triggerCharacters", json::array{"-", "=", ":", "."}}}},
    };
    return json::object{
        {"capabilities", std::move(capabilities)},
        {"serverInfo", json::object{{"name", "jobspec"}, {"version", jobspec::version_string}}}};
}

void Server::did_open(const DidOpenParams& params) {
    const std::string uri(params.uri);
    // Kept, and written back in every publishDiagnostics: a URI, not a document.
    if (uri.size() > max_uri_bytes)
        throw InvalidParams(fmt::format("the uri is longer than {} bytes", max_uri_bytes));
    if (documents_.size() >= max_open_documents && !documents_.contains(uri))
        throw InvalidParams(
            fmt::format("{} documents are open already; close one first", max_open_documents));
    Document d;
    d.name = uri_name(uri);
    d.language = params.language;
    d.version = params.version.value_or(0);
    set_text(d, std::string(params.text));
    d.kind = document_kind(d.name, d.text, d.language);
    documents_.insert_or_assign(uri, std::move(d));
}

void Server::did_change(const DidChangeParams& params) {
    Document& d = document(params.uri);
    for (const auto& [range, text] : params.changes) {
        if (!range) {
            set_text(d, std::string(text));
            continue;
        }
        // An edit of a text not kept whole cannot be applied; it waits for the whole text.
        if (d.over_limit || d.stale)
            continue;
        std::size_t begin = offset_of(d.text, range->start, encoding_);
        std::size_t end = offset_of(d.text, range->end, encoding_);
        if (end < begin)
            std::swap(begin, end);
        const std::size_t limit = options_.limits.max_input_bytes;
        if (d.text.size() - (end - begin) + text.size() > limit) {
            // Keep no more than the limit + 1 bytes: enough to say the text is too long.
            std::string kept = d.text.substr(0, begin);
            kept.append(text.substr(0, std::min(text.size(), limit + 1 - kept.size())));
            if (kept.size() <= limit)
                kept.append(d.text, end, limit + 1 - kept.size());
            d.text = std::move(kept);
            d.over_limit = true;
        } else {
            d.text.replace(begin, end - begin, text);
        }
    }
    if (params.version)
        d.version = *params.version;
    if (!d.kind)
        d.kind = document_kind(d.name, d.text, d.language);
    d.changed();
}

void Server::did_close(std::string_view uri) {
    const auto found = documents_.find(uri);
    if (found == documents_.end())
        return;
    documents_.erase(found);
    // The client keeps a closed document's diagnostics until it is told there are none.
    send(notification("textDocument/publishDiagnostics",
                      json::object{{"uri", uri}, {"diagnostics", json::array{}}}));
}

const Diagnostics& Server::diagnostics(Document& d) {
    if (d.diagnostics)
        return *d.diagnostics;
    Diagnostics found(options_.limits.max_diagnostics);
    const std::string name = d.name.empty() ? "the document" : "'" + d.name + "'";
    if (d.over_limit)
        found.add(Code::limit_input_size,
                  fmt::format("{} is longer than the limit of {} bytes", name,
                              options_.limits.max_input_bytes),
                  Location{SourceRange{0, 0}},
                  "raise the limit with 'jobspec lsp --max-input-bytes', or shorten the "
                  "document and open it again");
    else if (d.stale)
        found.add(Code::limit_input_size,
                  fmt::format("an edit of {} was larger than the server reads, so its text "
                              "is not known",
                              name),
                  Location{SourceRange{0, 0}}, "close the document and open it again");
    else if (d.kind)
        found = check_document(*d.kind, d.text, {options_.limits, options_.dialect}).diagnostics();
    d.diagnostics = std::move(found);
    return *d.diagnostics;
}

json::array Server::fix_edits(Document& d, const Diagnostic& diagnostic) {
    json::array edits;
    for (const auto& f : diagnostic.fixes) {
        if (!f.range.known() || f.range.end > d.text.size())
            return {};
        edits.push_back(json::object{{"range", range_json(d, f.range.begin, f.range.end)},
                                     {"newText", f.replacement}});
    }
    return edits;
}

json::object Server::diagnostic_json(Document& d, const Diagnostic& diagnostic) {
    std::string message = diagnostic.message;
    json::object range;
    if (diagnostic.location.source != nullptr) {
        message = diagnostic.location.source->name + ": " + message;
        range = range_json(d, 0, 0);
    } else if (diagnostic.location.range.known()) {
        range = range_json(d, diagnostic.location.range.begin, diagnostic.location.range.end);
    } else {
        range = range_json(d, 0, 0);
        if (!diagnostic.location.pointer.empty())
            message += "\nat " + diagnostic.location.pointer;
    }
    if (!diagnostic.help.empty())
        message += "\n" + diagnostic.help;
    json::object out{{"range", std::move(range)},
                     {"severity", diagnostic.severity == Severity::error ? 1 : 2},
                     {"code", diagnostic.code_name()},
                     {"source", "jobspec"},
                     {"message", std::move(message)}};
    if (located(diagnostic) && !diagnostic.fixes.empty())
        if (auto edits = fix_edits(d, diagnostic); !edits.empty())
            out["data"] = json::object{{"fixes", std::move(edits)}};
    return out;
}

void Server::publish(const std::string& uri, Document& d) {
    json::array list;
    for (const auto& diagnostic : diagnostics(d))
        list.push_back(diagnostic_json(d, diagnostic));
    d.dirty = false;
    send(notification("textDocument/publishDiagnostics",
                      json::object{{"uri", uri}, {"version", d.version}, {"diagnostics", list}}));
}

void Server::publish_changed() {
    for (auto& [uri, d] : documents_) {
        if (!d.dirty || gone_)
            continue;
        try {
            publish(uri, d);
        } catch (const std::exception& e) {
            // Not again for this version: a check that fails would fail at each turn.
            d.dirty = false;
            log(1, fmt::format("checking {} failed: {}", uri, to_valid_utf8(e.what())));
        }
    }
}

json::value Server::hover(const PositionParams& params) {
    Document& d = document(params.uri);
    if (d.over_limit || d.stale)
        return nullptr;
    const std::size_t at = lines(d).offset(d.text, params.position, encoding_);
    std::vector<std::string> parts;
    std::optional<std::pair<std::size_t, std::size_t>> range;
    if (d.kind)
        if (const auto h = hover_at(*d.kind, d.text, at, options_.limits)) {
            parts.push_back(h->markdown);
            range = {h->begin, h->end};
        }
    // On a diagnostic: what its code means, once for each code.
    std::vector<Code> explained;
    for (const auto& diagnostic : diagnostics(d)) {
        const SourceRange r = diagnostic.location.range;
        if (!located(diagnostic) || at < r.begin || at > r.end || (at == r.end && r.size() > 0) ||
            std::find(explained.begin(), explained.end(), diagnostic.code) != explained.end())
            continue;
        explained.push_back(diagnostic.code);
        const std::string_view text = explanation(diagnostic.code);
        parts.push_back(fmt::format("**{}**\n\n{}", diagnostic.code_name(),
                                    text.empty() ? diagnostic.message : std::string(text)));
        if (!range)
            range = {r.begin, r.end};
    }
    if (parts.empty())
        return nullptr;
    std::string markdown;
    for (const auto& part : parts)
        markdown += (markdown.empty() ? "" : "\n\n---\n\n") + part;
    return json::object{{"contents", json::object{{"kind", "markdown"}, {"value", markdown}}},
                        {"range", range_json(d, range->first, range->second)}};
}

json::value Server::completion(const PositionParams& params) {
    Document& d = document(params.uri);
    json::array items;
    if (d.kind && !d.over_limit && !d.stale) {
        const std::size_t at = lines(d).offset(d.text, params.position, encoding_);
        const Completions found = complete_at(*d.kind, d.text, at, options_.limits);
        const json::object range = range_json(d, found.begin, at);
        for (const auto& c : found.items) {
            json::object item{{"label", c.label},
                              {"kind", c.kind},
                              {"textEdit", json::object{{"range", range}, {"newText", c.insert}}}};
            if (!c.detail.empty())
                item["detail"] = c.detail;
            if (!c.documentation.empty())
                item["documentation"] =
                    json::object{{"kind", "markdown"}, {"value", c.documentation}};
            items.push_back(std::move(item));
        }
    }
    return json::object{{"isIncomplete", false}, {"items", std::move(items)}};
}

json::value Server::code_action(const CodeActionParams& params) {
    Document& d = document(params.uri);
    json::array actions;
    if (!params.quickfix_wanted || d.over_limit || d.stale)
        return actions;
    const Diagnostics& found = diagnostics(d);
    const LineIndex& index = lines(d);
    // The diagnostics the client names, found among the document's own by code and
    // range; with none named, those in the range asked about.
    std::vector<std::pair<const Diagnostic*, json::value>> chosen;
    if (params.named) {
        for (const auto& named : params.diagnostics)
            for (const auto& diagnostic : found) {
                const SourceRange r = diagnostic.location.range;
                if (located(diagnostic) && named.code == diagnostic.code_name() &&
                    index.position(d.text, r.begin, encoding_) == named.range.start &&
                    index.position(d.text, std::max(r.begin, r.end), encoding_) ==
                        named.range.end) {
                    chosen.emplace_back(&diagnostic, *named.json);
                    break;
                }
            }
    } else {
        const std::size_t begin = index.offset(d.text, params.range.start, encoding_);
        const std::size_t end = index.offset(d.text, params.range.end, encoding_);
        for (const auto& diagnostic : found)
            if (located(diagnostic) && diagnostic.location.range.begin <= end &&
                diagnostic.location.range.end >= begin)
                chosen.emplace_back(&diagnostic, diagnostic_json(d, diagnostic));
    }
    for (const auto& [diagnostic, shown] : chosen) {
        json::array edits = fix_edits(d, *diagnostic);
        if (edits.empty())
            continue;
        const FixIt& first = diagnostic->fixes.front();
        const std::string_view old =
            std::string_view(d.text).substr(first.range.begin, first.range.size());
        std::string title =
            old.empty() ? fmt::format("Insert '{}'", snippet(first.replacement))
            : first.replacement.empty()
                ? fmt::format("Remove '{}'", snippet(old))
                : fmt::format("Replace '{}' with '{}'", snippet(old), snippet(first.replacement));
        if (diagnostic->fixes.size() > 1)
            title += fmt::format(" (and {} more edits)", diagnostic->fixes.size() - 1);
        actions.push_back(json::object{
            {"title", std::move(title)},
            {"kind", "quickfix"},
            {"diagnostics", json::array{shown}},
            {"isPreferred", true},
            {"edit", json::object{{"changes", json::object{{params.uri, std::move(edits)}}}}},
        });
    }
    return actions;
}

} // namespace

ReaderLimits reader_limits(const ServerOptions& options) {
    const std::size_t limit = options.limits.max_input_bytes;
    ReaderLimits r;
    r.max_string_bytes = limit + 1;
    r.max_message_bytes = 2 * limit + (std::size_t{1} << 20);
    if (r.max_message_bytes < limit) // overflow: the limit is near SIZE_MAX
        r.max_message_bytes = SIZE_MAX;
    return r;
}

SessionEnd serve(MessageReader& in, MessageWriter& out, const ServerOptions& options) {
    Server server(out, options);
    for (;;) {
        // A burst of edits is read whole before the documents are checked again: they are
        // checked once nothing has come for a quiet period, so that the diagnostics are of
        // the latest version and a burst of any length costs one check (docs/EDITORS.md).
        if (!in.input_pending(server.unchecked() ? quiet_period : std::chrono::milliseconds(0)))
            server.publish_changed();
        if (server.finished())
            return {server.status(), {}};
        ReadResult read = in.next();
        if (read.kind == ReadResult::Kind::end)
            return {server.status(), std::move(read.error)};
        if (read.kind == ReadResult::Kind::error) {
            server.send(error_response(nullptr, read.code, read.error));
            if (read.code == error_code::invalid_request)
                server.message_refused();
            continue;
        }
        if (!read.note.empty())
            server.log(2, read.note);
        server.handle(read.message);
    }
}

} // namespace jobspec::cli::lsp
