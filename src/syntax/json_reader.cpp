// JSON text -> document tree, through Boost.JSON's SAX-style basic_parser, so that keys,
// strings and numbers keep their byte ranges and duplicate keys are caught.
#include <cctype>
#include <cmath>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include "support/input_limit.hpp"
#include "support/numbers.hpp"
#include "syntax/document_tree.hpp"
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

    JsonHandler(std::string_view text, const Limits& limits, Diagnostics& diagnostics,
                const JsonDialect& dialect)
        : text_(text), diagnostics_(diagnostics),
          builder_(limits, diagnostics, dialect.duplicate_key, dialect.last_duplicate_wins) {}

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
        DocNode node = DocNode::of(std::move(part_), string_range(s, n));
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
        builder_.value(DocNode::of(i, number_range(s)));
        return true;
    }
    bool on_uint64(std::uint64_t u, string_view s, error_code&) {
        number_.clear();
        builder_.value(DocNode::of(u, number_range(s)));
        return true;
    }
    bool on_double(double d, string_view s, error_code&) {
        number_.append(s.data(), s.size());
        const double exact = support::exact_double(number_, d);
        DocNode node = DocNode::of(exact, number_range(s));
        if (!std::isfinite(exact)) {
            diagnostics_.add(
                Code::limit_integer, fmt::format("number '{}' is out of range", number_),
                Location{node.range, builder_.pointer()}, "quote it to keep it as a string");
            node.value = number_;
        }
        number_.clear();
        builder_.value(std::move(node));
        return true;
    }
    bool on_bool(bool b, error_code&) {
        builder_.value(DocNode::of(b));
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
                                 Diagnostics& diagnostics, const JsonDialect& dialect,
                                 std::size_t* used) {
    if (!support::within_input_limit(text, limits, dialect.name, diagnostics) ||
        !support::valid_utf8(text, dialect.invalid_utf8, dialect.subject, diagnostics))
        return std::nullopt;
    boost::json::parse_options options;
    // One more than ours, so our builder reports the limit with a pointer first.
    options.max_depth = limits.effective_depth() + 1;
    const std::size_t errors_before = diagnostics.error_count();
    boost::json::basic_parser<JsonHandler> parser(options, text, limits, diagnostics, dialect);
    error_code ec;
    // The parser stops after one document; without `used` nothing may follow it.
    const std::size_t read = parser.write_some(false, text.data(), text.size(), ec);
    if (!ec && used == nullptr && read < text.size())
        ec = boost::json::error::extra_data;
    if (ec && !parser.handler().depth_exceeded()) {
        const auto at = static_cast<std::uint32_t>(read);
        std::string message = ec.message();
        if (!message.empty())
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        diagnostics.add(dialect.syntax, fmt::format("{}: {}", dialect.syntax_message, message),
                        Location{SourceRange{at, at + (at < text.size() ? 1U : 0U)}, {}});
    }
    if (used != nullptr)
        *used = read;
    if (ec || diagnostics.error_count() > errors_before)
        return std::nullopt;
    return parser.handler().builder().finish();
}

} // namespace jobspec::syntax
