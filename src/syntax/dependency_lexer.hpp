// The dependency URI token source.
#pragma once

#include <string_view>

#include <jobspec/diagnostic.hpp>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// Lexes an RFC 26 URI by position (the token rules are in grammar/Dependency.g4),
/// reporting dependency.syntax for characters a scheme cannot hold and for control
/// characters. Token types are the generated Dependency parser's.
class DependencyTokenSource final : public TokenListSource {
public:
    DependencyTokenSource(std::string_view text, Diagnostics& diagnostics);
};

} // namespace jobspec::syntax
