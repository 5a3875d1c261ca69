// Parsing RFC 26 dependency URIs into their AST.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/limits.hpp>

#include "syntax/parse_observer.hpp"

namespace jobspec::syntax {

/// A dependency URI as written, its options' %XX escapes and '+' decoded.
struct DependencyAst {
    struct Option {
        std::string key;
        std::string value;
        SourceRange key_range;
        SourceRange value_range;
    };
    std::string scheme;
    SourceRange scheme_range;
    /// Nothing when there is no ':' ("singleton").
    std::optional<std::string> value;
    SourceRange value_range;
    std::vector<Option> options;
};

/// Parses "scheme:value?key=val&key=val": checks the size limit, lexes, runs the
/// generated parser and decodes %XX escapes. Returns nothing when a dependency.* or
/// limit.* error was added.
/// An `observer` watches the lexing and the parse (the grammar debugger's way in).
std::optional<DependencyAst> parse_dependency_uri(std::string_view text, const Limits& limits,
                                                  Diagnostics& diagnostics,
                                                  ParseObserver* observer = nullptr);

/// How a Dependency token type reads in messages.
std::string describe_dependency_token(std::size_t type);

} // namespace jobspec::syntax
