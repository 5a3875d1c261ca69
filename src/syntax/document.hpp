// The document tree: a YAML or JSON document as read, every node with its source range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <jobspec/diagnostic.hpp>
#include <jobspec/document.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::syntax {

struct DocMember;

/// One node of a document. Scalars are already typed (YAML plain scalars are resolved
/// with the YAML 1.2 core schema). Ranges are byte offsets into the text; JSON only
/// knows the ranges of strings, numbers and keys, so other JSON nodes' ranges are unknown.
struct DocNode {
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
    Kind kind = Kind::null;
    bool boolean = false;
    std::int64_t integer = 0;
    std::uint64_t uinteger = 0;
    double real = 0;
    std::string text;
    std::vector<DocNode> elements;
    std::vector<DocMember> members;
    SourceRange range;

    bool is_mapping() const noexcept { return kind == Kind::mapping; }
    bool is_sequence() const noexcept { return kind == Kind::sequence; }
    bool is_string() const noexcept { return kind == Kind::string; }
    bool is_number() const noexcept {
        return kind == Kind::integer || kind == Kind::uinteger || kind == Kind::real;
    }
    /// The member with that key, or nullptr (keys are unique once read).
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

/// What a node is, for messages: "a string", "a list", "a dictionary", ...
std::string_view describe(DocNode::Kind kind) noexcept;

/// Reads JSON text (RFC 8259) into a document tree with Boost.JSON's parser. Reports
/// jobspec.json-syntax (at the byte where parsing stopped), jobspec.duplicate-key,
/// limit.depth and limit.input-size; returns nothing on any error.
std::optional<DocNode> read_json(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics);

/// Reads one YAML document into a document tree through yaml-cpp's event parser, never
/// building yaml-cpp's node graph. Aliases are expanded within Limits::max_alias_nodes;
/// an alias inside its own anchor is an error. Reports jobspec.yaml-syntax,
/// jobspec.duplicate-key, jobspec.yaml-alias, jobspec.yaml-documents, limit.depth,
/// limit.aliases and limit.input-size; returns nothing on any error.
std::optional<DocNode> read_yaml(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics);

/// read_json or read_yaml as `format` says; `automatic` picks JSON when the first
/// non-blank character is '{' or '['.
std::optional<DocNode> read_document(std::string_view text, DocumentFormat format,
                                     const Limits& limits, Diagnostics& diagnostics);

} // namespace jobspec::syntax
