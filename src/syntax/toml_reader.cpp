// TOML text -> document tree, through toml++ (header-only here, without exceptions).

// toml++ 3.3.0 asserts what its parser does not check: a table header such as "[[[" or
// "[=" reaches parse_key(), which asserts (aborting a build with assertions) or, under
// NDEBUG, tells clang to assume (undefined behaviour) that the next character starts a
// key; the code after the assertion reports it as a syntax error. So its assertions are
// off here, and NDEBUG is hidden from it so that none becomes an assumption.
#ifdef NDEBUG
#define JOBSPEC_TOML_NDEBUG
#undef NDEBUG
#endif
#define TOML_ASSERT(expr) static_cast<void>(0)
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>
#ifdef JOBSPEC_TOML_NDEBUG
#define NDEBUG
#undef JOBSPEC_TOML_NDEBUG
#endif

#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "support/input_limit.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::syntax {

namespace {

/// Turns toml++'s positions (1-based lines, and columns counted in characters) into
/// byte offsets of the text.
class Offsets {
public:
    explicit Offsets(std::string_view text) : text_(text) {
        lines_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                lines_.push_back(static_cast<std::uint32_t>(i + 1));
    }

    std::uint32_t at(const toml::source_position& p) const noexcept {
        if (p.line == 0 || p.line > lines_.size())
            return static_cast<std::uint32_t>(text_.size());
        std::size_t at = lines_[p.line - 1];
        // Step over column - 1 characters, each a UTF-8 lead byte and its continuations.
        for (std::uint32_t c = 1; c < p.column && at < text_.size() && text_[at] != '\n'; ++c) {
            ++at;
            while (at < text_.size() && (static_cast<unsigned char>(text_[at]) & 0xC0) == 0x80)
                ++at;
        }
        return static_cast<std::uint32_t>(at);
    }

    SourceRange range(const toml::source_region& r) const noexcept {
        const std::uint32_t begin = at(r.begin);
        return {begin, std::max(begin, at(r.end))};
    }

private:
    std::string_view text_;
    std::vector<std::uint32_t> lines_;
};

/// A date, time or date-time as RFC 3339 writes it (as TOML does).
template <class T>
std::string written(const T& value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

DocNode convert(const toml::node& node, const Offsets& offsets) {
    const SourceRange range = offsets.range(node.source());
    switch (node.type()) {
    case toml::node_type::table: {
        std::vector<DocMember> members;
        for (const auto& [key, value] : *node.as_table())
            members.push_back(
                {std::string(key.str()), offsets.range(key.source()), convert(value, offsets)});
        return DocNode::of(std::move(members), range);
    }
    case toml::node_type::array: {
        std::vector<DocNode> elements;
        for (const auto& element : *node.as_array())
            elements.push_back(convert(element, offsets));
        return DocNode::of(std::move(elements), range);
    }
    case toml::node_type::string:
        return DocNode::of(std::string(node.as_string()->get()), range);
    case toml::node_type::integer:
        return DocNode::of(node.as_integer()->get(), range);
    case toml::node_type::floating_point:
        return DocNode::of(node.as_floating_point()->get(), range);
    case toml::node_type::boolean:
        return DocNode::of(node.as_boolean()->get(), range);
    case toml::node_type::date:
        return DocNode::of(written(node.as_date()->get()), range);
    case toml::node_type::time:
        return DocNode::of(written(node.as_time()->get()), range);
    case toml::node_type::date_time:
        return DocNode::of(written(node.as_date_time()->get()), range);
    case toml::node_type::none:
        break;
    }
    return DocNode::make(DocNode::Kind::null, range);
}

} // namespace

std::optional<DocNode> read_toml(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics, Code syntax, Code invalid_utf8) {
    if (!support::within_input_limit(text, limits, "TOML", diagnostics) ||
        !support::valid_utf8(text, invalid_utf8, "the TOML", diagnostics))
        return std::nullopt;
    const Offsets offsets(text);
    toml::parse_result parsed = toml::parse(text);
    if (!parsed) {
        const auto& error = parsed.error();
        const std::uint32_t at = offsets.at(error.source().begin);
        diagnostics.add(syntax, fmt::format("invalid TOML: {}", error.description()),
                        Location(SourceRange{at, at + (at < text.size() ? 1U : 0U)}));
        return std::nullopt;
    }
    return convert(parsed.table(), offsets);
}

} // namespace jobspec::syntax
