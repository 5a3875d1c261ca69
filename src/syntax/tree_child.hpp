// Telling a parse tree child's kind without dynamic_cast.
#pragma once

#include <typeinfo>

#include <antlr4-runtime.h>

namespace jobspec::syntax {

/// A child of a parse tree node: a token (terminal or error node) or a rule context.
struct TreeChild {
    antlr4::Token* token = nullptr;
    antlr4::ParserRuleContext* rule = nullptr;

    /// The child's rule (the generated Rule* constant), or SIZE_MAX for a token.
    std::size_t rule_index() const { return rule != nullptr ? rule->getRuleIndex() : SIZE_MAX; }
    std::size_t token_type() const { return token != nullptr ? token->getType() : 0; }
};

/// What `node` is, from its dynamic type. The generated accessors (ctx->vertex(),
/// ctx->NAME()) dynamic_cast every child on every call, and across the ANTLR runtime's
/// shared library each cast compares type names; one typeid per child costs a pointer
/// comparison for tokens and a first-character mismatch for rules.
inline TreeChild tree_child(antlr4::tree::ParseTree* node) {
    const std::type_info& type = typeid(*node);
    if (type == typeid(antlr4::tree::TerminalNodeImpl) ||
        type == typeid(antlr4::tree::ErrorNodeImpl))
        return {static_cast<antlr4::tree::TerminalNode*>(node)->getSymbol(), nullptr};
    return {nullptr, static_cast<antlr4::ParserRuleContext*>(node)};
}

} // namespace jobspec::syntax
