// JSON text -> document tree, through Boost.JSON's SAX-style basic_parser, so that keys,
// strings and numbers keep their byte ranges and duplicate keys are caught.
#include <cctype>
#include <cmath>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include "support/input_limit.hpp"
#include "support/json_parse.hpp"
#include "syntax/document.hpp"
#include "syntax/document_builder.hpp"

namespace jobspec::syntax {

namespace {

using boost::json::error_code;
using boost::json::string_view;

/// The Boost.JSON handler: forwards events to a DocBuilder, with ranges for keys,
/// strings and numbers (the views Boost.JSON passes point into the input unless the
/// text needed unescaping or arrived in parts).
class JsonHandler {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    JsonHandler(std::string_view text, const Limits& limits, Diagnostics& diagnostics)
        : text_(text), diagnostics_(diagnostics), builder_(limits, diagnostics) {}

    DocBuilder& builder() { return builder_; }
    bool depth_exceeded() const { return depth_exceeded_; }

    bool on_document_begin(error_code&) { return true; }
    bool on_document_end(error_code&) { return true; }
    bool on_array_begin(error_code& ec) { return open(DocNode::Kind::sequence, ec); }
    bool on_object_begin(error_code& ec) { return open(DocNode::Kind::mapping, ec); }
    bool on_array_end(std::size_t, error_code&) { return close(); }
    bool on_object_end(std::size_t, error_code&) { return close(); }

    bool on_key_part(string_view s, std::size_t, error_code&) {
        part_.append(s.data(), s.size());
        return true;
    }
    bool on_key(string_view s, std::size_t n, error_code&) {
        part_.append(s.data(), s.size());
        builder_.key(std::move(part_), string_range(s, n));
        part_.clear();
        return true;
    }
    bool on_string_part(string_view s, std::size_t, error_code&) {
        part_.append(s.data(), s.size());
        return true;
    }
    bool on_string(string_view s, std::size_t n, error_code&) {
        part_.append(s.data(), s.size());
        DocNode node;
        node.kind = DocNode::Kind::string;
        node.text = std::move(part_);
        node.range = string_range(s, n);
        part_.clear();
        builder_.value(std::move(node));
        return true;
    }
    bool on_number_part(string_view s, error_code&) {
        number_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t i, string_view s, error_code&) {
        number_.clear();
        DocNode node;
        node.kind = DocNode::Kind::integer;
        node.integer = i;
        node.range = number_range(s);
        builder_.value(std::move(node));
        return true;
    }
    bool on_uint64(std::uint64_t u, string_view s, error_code&) {
        number_.clear();
        DocNode node;
        node.kind = DocNode::Kind::uinteger;
        node.uinteger = u;
        node.range = number_range(s);
        builder_.value(std::move(node));
        return true;
    }
    bool on_double(double d, string_view s, error_code&) {
        DocNode node;
        node.kind = DocNode::Kind::real;
        number_.append(s.data(), s.size());
        node.real = support::exact_double(number_, d);
        node.range = number_range(s);
        if (!std::isfinite(node.real)) {
            diagnostics_.add(
                Code::limit_integer, fmt::format("number '{}' is out of range", number_),
                Location{node.range, builder_.pointer()}, "quote it to keep it as a string");
            node.kind = DocNode::Kind::string;
            node.text = number_;
        }
        number_.clear();
        builder_.value(std::move(node));
        return true;
    }
    bool on_bool(bool b, error_code&) {
        DocNode node;
        node.kind = DocNode::Kind::boolean;
        node.boolean = b;
        builder_.value(std::move(node));
        return true;
    }
    bool on_null(error_code&) {
        builder_.value(DocNode{});
        return true;
    }
    bool on_comment_part(string_view, error_code&) { return true; }
    bool on_comment(string_view, error_code&) { return true; }

private:
    bool open(DocNode::Kind kind, error_code& ec) {
        if (builder_.begin(kind, {}))
            return true;
        depth_exceeded_ = true;
        ec = boost::json::error::too_deep;
        return false;
    }
    bool close() {
        builder_.end();
        return true;
    }

    /// Where `s` lies in the text, or nothing when it is not a view of the text.
    std::optional<std::size_t> offset_of(string_view s) const {
        if (s.data() < text_.data() || s.data() > text_.data() + text_.size())
            return std::nullopt;
        return static_cast<std::size_t>(s.data() - text_.data());
    }
    /// A string of n bytes whose last part is `s`, quotes included.
    SourceRange string_range(string_view s, std::size_t n) const {
        const auto at = offset_of(s);
        if (!at || n != s.size() || *at == 0)
            return {};
        return {static_cast<std::uint32_t>(*at - 1), static_cast<std::uint32_t>(*at + n + 1)};
    }
    SourceRange number_range(string_view s) const {
        const auto at = offset_of(s);
        if (!at)
            return {};
        return {static_cast<std::uint32_t>(*at), static_cast<std::uint32_t>(*at + s.size())};
    }

    std::string_view text_;
    Diagnostics& diagnostics_;
    DocBuilder builder_;
    std::string part_;
    std::string number_;
    bool depth_exceeded_ = false;
};

} // namespace

std::optional<DocNode> read_json(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics) {
    if (!support::within_input_limit(text, limits, "document", diagnostics) ||
        !support::valid_utf8(text, Code::jobspec_invalid_utf8, "the document", diagnostics))
        return std::nullopt;
    boost::json::parse_options options;
    // One more than ours, so our builder reports the limit with a pointer first.
    options.max_depth = limits.effective_depth() + 1;
    const std::size_t errors_before = diagnostics.error_count();
    boost::json::basic_parser<JsonHandler> parser(options, text, limits, diagnostics);
    error_code ec;
    const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
    if (!ec && used < text.size())
        ec = boost::json::error::extra_data;
    if (ec && !parser.handler().depth_exceeded()) {
        const auto at = static_cast<std::uint32_t>(used);
        std::string message = ec.message();
        if (!message.empty())
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        diagnostics.add(Code::jobspec_json_syntax, fmt::format("invalid JSON: {}", message),
                        Location{SourceRange{at, at + (at < text.size() ? 1U : 0U)}, {}});
    }
    if (ec || diagnostics.error_count() > errors_before)
        return std::nullopt;
    return parser.handler().builder().finish();
}

} // namespace jobspec::syntax
