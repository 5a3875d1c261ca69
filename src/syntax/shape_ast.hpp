// The shape AST: what a shape string says, before any RFC 14 meaning is given to it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <jobspec/diagnostic.hpp>

namespace jobspec::syntax {

struct ShapeItem;

/// A dictionary: the braces of a vertex, or a nested dictionary value.
struct ShapeDict {
    std::vector<ShapeItem> items;
    SourceRange range;
};

/// A dictionary value as written.
struct ShapeValue {
    enum class Kind : std::uint8_t {
        word,   ///< unquoted: lowering decides if it is a number, boolean, null or string
        string, ///< quoted; `text` holds the unescaped contents
        dict,
        array,
    };
    Kind kind = Kind::word;
    std::string text;
    ShapeDict dict;
    std::vector<ShapeValue> elements;
    SourceRange range;
};

/// One dictionary entry: "key:value", or a boolean "key", "+key", "-key".
struct ShapeItem {
    enum class Sign : std::uint8_t { none, plus, minus };
    Sign sign = Sign::none;
    std::string key;
    bool key_quoted = false;
    SourceRange key_range;
    std::optional<ShapeValue> value;
    SourceRange range;
};

/// The count after '=': its text as written (brackets included), decoded by lowering.
struct ShapeCount {
    std::string text;
    SourceRange range;
};

/// One vertex: type, optional count, optional braces, and the level after '/'.
struct ShapeVertex {
    std::string type;
    SourceRange type_range;
    std::optional<ShapeCount> count;
    std::optional<ShapeDict> dict;
    std::vector<ShapeVertex> with;
    bool has_with = false;
    SourceRange range;
};

/// A whole shape: its outermost level.
struct ShapeAst {
    std::vector<ShapeVertex> vertices;
    SourceRange range;
};

} // namespace jobspec::syntax
