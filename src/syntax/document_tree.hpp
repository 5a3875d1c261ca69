// The document tree: a YAML or JSON document as read, every node with its source range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::syntax {

struct DocMember;

/// One node of a document: a typed scalar, a sequence or a mapping. Scalars are already
/// typed (YAML plain scalars are resolved with the YAML 1.2 core schema). Ranges are byte
/// offsets into the text; JSON only knows the ranges of strings, numbers and keys, so
/// other JSON nodes' ranges are unknown, as are those of nodes made from JSON values.
struct DocNode {
    /// The kinds, in the order of Value's alternatives.
    enum class Kind : std::uint8_t {
        null,
        boolean,
        integer,
        uinteger,
        real,
        string,
        sequence,
        mapping
    };
    using Value = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double,
                               std::string, std::vector<DocNode>, std::vector<DocMember>>;

    Value value;
    SourceRange range;

    /// A node of `kind` with its empty or zero value.
    static DocNode make(Kind kind, SourceRange range = {});
    /// A node holding `v` (one of Value's alternatives).
    template <class T>
    static DocNode of(T v, SourceRange range = {});
    /// A node of a JSON value, and everything under it; ranges unknown.
    static DocNode from_json(const boost::json::value& v);

    Kind kind() const noexcept { return static_cast<Kind>(value.index()); }
    bool is_mapping() const noexcept { return kind() == Kind::mapping; }
    bool is_sequence() const noexcept { return kind() == Kind::sequence; }
    bool is_string() const noexcept { return kind() == Kind::string; }
    bool is_number() const noexcept {
        return kind() == Kind::integer || kind() == Kind::uinteger || kind() == Kind::real;
    }

    /// The value of that kind; the node must be of it.
    bool boolean() const { return std::get<bool>(value); }
    std::int64_t integer() const { return std::get<std::int64_t>(value); }
    std::uint64_t uinteger() const { return std::get<std::uint64_t>(value); }
    double real() const { return std::get<double>(value); }
    const std::string& text() const { return std::get<std::string>(value); }
    const std::vector<DocNode>& elements() const { return std::get<std::vector<DocNode>>(value); }
    std::vector<DocNode>& elements() { return std::get<std::vector<DocNode>>(value); }
    const std::vector<DocMember>& members() const {
        return std::get<std::vector<DocMember>>(value);
    }
    std::vector<DocMember>& members() { return std::get<std::vector<DocMember>>(value); }

    /// The member with that key, or nullptr (keys are unique once read; nullptr for a
    /// node that is not a mapping).
    const DocMember* find(std::string_view key) const noexcept;
    /// The node as a JSON value.
    boost::json::value to_json() const;
};

/// A mapping entry: key, where the key is, and the value.
struct DocMember {
    std::string key;
    SourceRange key_range;
    DocNode value;
};

// Defined here, where DocMember is complete (clang instantiates DocNode's constructor
// when it reads the body).
template <class T>
DocNode DocNode::of(T v, SourceRange range) {
    DocNode n;
    n.value = std::move(v);
    n.range = range;
    return n;
}

/// What a node is, for messages: "a string", "a list", "a dictionary", ...
std::string_view describe(DocNode::Kind kind) noexcept;

/// What a JSON input is called and which codes its problems have: jobspec documents by
/// default; R and RFC 31 constraints are read the same way but report in their families.
struct JsonDialect {
    /// How size limits name it ("document is 2000000 bytes long, ...").
    std::string_view name = "document";
    /// How messages name it ("the document is not valid UTF-8").
    std::string_view subject = "the document";
    /// How syntax errors start ("invalid JSON: syntax error").
    std::string_view syntax_message = "invalid JSON";
    Code syntax = Code::jobspec_json_syntax;
    Code duplicate_key = Code::jobspec_duplicate_key;
    Code invalid_utf8 = Code::jobspec_invalid_utf8;
    /// Whether a repeated key's last value is kept (else its first).
    bool last_duplicate_wins = false;
};

/// Reads JSON text (RFC 8259) into a document tree with Boost.JSON's parser: every key,
/// string and number with its byte range. Reports the dialect's syntax code (at the byte
/// where parsing stopped), its duplicate-key and invalid-UTF-8 codes, limit.depth,
/// limit.integer and limit.input-size; returns nothing on any error. With `used`, the
/// text may go on after the document (several documents one after another): *used is
/// set to the bytes the document took; without it, text after the document is an error.
std::optional<DocNode> read_json(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics, const JsonDialect& dialect = {},
                                 std::size_t* used = nullptr);

/// Reads one YAML document into a document tree through yaml-cpp's event parser, never
/// building yaml-cpp's node graph. Aliases are expanded within Limits::max_alias_nodes;
/// an alias inside its own anchor is an error. Reports jobspec.yaml-syntax,
/// jobspec.duplicate-key, jobspec.yaml-alias, jobspec.yaml-documents, limit.depth,
/// limit.aliases and limit.input-size; returns nothing on any error.
std::optional<DocNode> read_yaml(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics);

/// Reads a TOML document (TOML 1.0, through toml++) into a document tree: tables are
/// mappings, arrays sequences, dates and times strings as written in RFC 3339; every
/// key and value with its byte range. Reports `syntax` (at the place toml++ stopped),
/// limit.input-size and `invalid_utf8`; returns nothing on any error.
std::optional<DocNode> read_toml(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics, Code syntax, Code invalid_utf8);

/// read_json or read_yaml as `format` says; `automatic` picks JSON when the first
/// non-blank character is '{' or '['.
std::optional<DocNode> read_document(std::string_view text, DocumentFormat format,
                                     const Limits& limits, Diagnostics& diagnostics);

} // namespace jobspec::syntax
