// The RFC 36 directive token source: the generated DirectiveLexer over the script's bytes.
#pragma once

#include <string_view>

#include "syntax/token_list_source.hpp"

namespace jobspec::syntax {

/// Lexes a batch script with grammar/DirectiveLexer.g4. Every byte sequence lexes, so
/// this reports nothing. Token types are the generated Directives parser's.
class DirectiveTokenSource final : public TokenListSource {
public:
    explicit DirectiveTokenSource(std::string_view script);
};

} // namespace jobspec::syntax
