#include "syntax/directive_lexer.hpp"

#include <antlr4-runtime.h>

#include "DirectiveLexer.h"
#include "syntax/byte_char_stream.hpp"

namespace jobspec::syntax {

DirectiveTokenSource::DirectiveTokenSource(std::string_view script)
    : TokenListSource("directives") {
    ByteCharStream bytes(script, "directives");
    grammar::DirectiveLexer lexer(&bytes);
    lexer.removeErrorListeners();
    for (;;) {
        const auto token = lexer.nextToken();
        const std::size_t line_start = token->getStartIndex() - token->getCharPositionInLine();
        if (token->getType() == antlr4::Token::EOF) {
            finish(script, token->getLine(), line_start);
            return;
        }
        push(token->getType(), script, token->getStartIndex(), token->getStopIndex() + 1,
             token->getLine(), line_start);
    }
}

} // namespace jobspec::syntax
