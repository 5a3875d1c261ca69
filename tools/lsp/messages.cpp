#include "messages.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace jobspec::cli::lsp {

namespace json = boost::json;

namespace {

const json::object& object_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || !v->is_object())
        throw InvalidParams(fmt::format("'{}' must be an object", key));
    return v->get_object();
}

std::string_view string_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || !v->is_string())
        throw InvalidParams(fmt::format("'{}' must be a string", key));
    return v->get_string();
}

/// A whole number; one above 2^32 - 1 is read as 2^32 - 1 (past every end).
std::uint32_t unsigned_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    if (v != nullptr && v->is_int64() && v->get_int64() >= 0)
        return static_cast<std::uint32_t>(std::min<std::int64_t>(v->get_int64(), UINT32_MAX));
    if (v != nullptr && v->is_uint64())
        return UINT32_MAX;
    throw InvalidParams(fmt::format("'{}' must be a whole number", key));
}

/// An integer member, when it is one.
std::optional<std::int64_t> optional_integer(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || !v->is_int64())
        return std::nullopt;
    return v->get_int64();
}

Position position_member(const json::object& o, std::string_view key) {
    const json::object& p = object_member(o, key);
    return {unsigned_member(p, "line"), unsigned_member(p, "character")};
}

Range range_member(const json::object& o, std::string_view key) {
    const json::object& r = object_member(o, key);
    return {position_member(r, "start"), position_member(r, "end")};
}

} // namespace

InitializeParams read_initialize(const json::object& params) {
    InitializeParams out;
    const auto* caps = params.if_contains("capabilities");
    if (caps == nullptr || !caps->is_object())
        return out;
    const auto* general = caps->get_object().if_contains("general");
    if (general == nullptr || !general->is_object())
        return out;
    const auto* offered = general->get_object().if_contains("positionEncodings");
    if (offered == nullptr || !offered->is_array())
        return out;
    const auto& list = offered->get_array();
    out.offers_utf8 = std::any_of(list.begin(), list.end(), [](const json::value& e) {
        return e.is_string() && e.get_string() == "utf-8";
    });
    return out;
}

DidOpenParams read_did_open(const json::object& params) {
    const json::object& item = object_member(params, "textDocument");
    DidOpenParams out;
    out.uri = string_member(item, "uri");
    if (const auto* language = item.if_contains("languageId"); language && language->is_string())
        out.language = language->get_string();
    out.version = optional_integer(item, "version");
    out.text = string_member(item, "text");
    return out;
}

DidChangeParams read_did_change(const json::object& params) {
    const json::object& item = object_member(params, "textDocument");
    DidChangeParams out;
    out.uri = string_member(item, "uri");
    out.version = optional_integer(item, "version");
    const json::value* changes = params.if_contains("contentChanges");
    if (changes == nullptr || !changes->is_array())
        throw InvalidParams("'contentChanges' must be an array");
    for (const auto& c : changes->get_array()) {
        if (!c.is_object())
            throw InvalidParams("each of 'contentChanges' must be an object");
        const json::object& change = c.get_object();
        ContentChange read{std::nullopt, string_member(change, "text")};
        if (change.contains("range"))
            read.range = range_member(change, "range");
        out.changes.push_back(read);
    }
    return out;
}

std::string_view read_document_uri(const json::object& params) {
    return string_member(object_member(params, "textDocument"), "uri");
}

PositionParams read_position_params(const json::object& params) {
    return {read_document_uri(params), position_member(params, "position")};
}

CodeActionParams read_code_action(const json::object& params) {
    CodeActionParams out;
    out.uri = read_document_uri(params);
    const json::object& context = object_member(params, "context");
    if (const auto* only = context.if_contains("only"); only && only->is_array()) {
        const auto& kinds = only->get_array();
        out.quickfix_wanted = std::any_of(kinds.begin(), kinds.end(), [](const json::value& k) {
            return k.is_string() && (k.get_string() == "quickfix" || k.get_string() == "");
        });
    }
    const json::value* named = context.if_contains("diagnostics");
    out.named = named != nullptr && named->is_array() && !named->get_array().empty();
    if (!out.named) {
        out.range = range_member(params, "range");
        return out;
    }
    for (const auto& n : named->get_array()) {
        const json::object* o = n.if_object();
        if (o == nullptr)
            continue;
        const json::value* code = o->if_contains("code");
        if (code == nullptr || !code->is_string() || !o->contains("range"))
            continue;
        out.diagnostics.push_back({code->get_string(), range_member(*o, "range"), &n});
    }
    return out;
}

} // namespace jobspec::cli::lsp
