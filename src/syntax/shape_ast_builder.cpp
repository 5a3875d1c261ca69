#include "syntax/shape_ast_builder.hpp"

#include "support/json_string.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/tree_child.hpp"

namespace jobspec::syntax {

namespace {

SourceRange range(antlr4::ParserRuleContext& ctx) {
    return {token_range(*ctx.getStart()).begin, token_range(*ctx.getStop()).end};
}

} // namespace

ShapeAst ShapeAstBuilder::shape(G::ShapeContext& ctx) {
    auto& list_ctx = static_cast<G::ListContext&>(*tree_child(ctx.children.front()).rule);
    return ShapeAst{list(list_ctx), range(list_ctx)};
}

std::vector<ShapeVertex> ShapeAstBuilder::list(G::ListContext& ctx) {
    std::vector<ShapeVertex> vertices;
    vertices.reserve(ctx.children.size() / 2 + 1);
    for (auto* node : ctx.children)
        if (const auto c = tree_child(node); c.rule_index() == G::RuleVertex)
            vertices.push_back(vertex(static_cast<G::VertexContext&>(*c.rule)));
    if (vertices.empty())
        diags_.add(Code::shape_empty_list, "empty list", Location{range(ctx), {}},
                   "a list needs at least one vertex");
    return vertices;
}

ShapeVertex ShapeAstBuilder::vertex(G::VertexContext& ctx) {
    ShapeVertex v;
    for (auto* node : ctx.children) {
        const auto c = tree_child(node);
        switch (c.rule_index()) {
        case G::RuleName:
            v.type = text(*c.rule->getStart());
            v.type_range = range(*c.rule);
            break;
        case G::RuleCount:
            v.count = ShapeCount{c.rule->getStart()->getText(), range(*c.rule)};
            break;
        case G::RuleDict:
            v.dict = dict(static_cast<G::DictContext&>(*c.rule));
            break;
        case G::RuleList:
            v.with = list(static_cast<G::ListContext&>(*c.rule));
            v.has_with = true;
            break;
        default:
            break;
        }
    }
    v.range = range(ctx);
    return v;
}

ShapeDict ShapeAstBuilder::dict(G::DictContext& ctx) {
    ShapeDict d;
    for (auto* node : ctx.children)
        if (const auto c = tree_child(node); c.rule_index() == G::RuleItem)
            d.items.push_back(item(static_cast<G::ItemContext&>(*c.rule)));
    d.range = range(ctx);
    return d;
}

ShapeItem ShapeAstBuilder::item(G::ItemContext& ctx) {
    ShapeItem i;
    for (auto* node : ctx.children) {
        const auto c = tree_child(node);
        if (c.token_type() == G::PLUS)
            i.sign = ShapeItem::Sign::plus;
        else if (c.token_type() == G::MINUS)
            i.sign = ShapeItem::Sign::minus;
        else if (c.rule_index() == G::RuleName) {
            antlr4::Token& token = *c.rule->getStart();
            i.key = text(token);
            i.key_quoted = token.getType() == G::STRING;
            i.key_range = range(*c.rule);
        } else if (c.rule_index() == G::RuleValue) {
            i.value = value(static_cast<G::ValueContext&>(*c.rule));
        }
    }
    i.range = range(ctx);
    return i;
}

ShapeValue ShapeAstBuilder::value(G::ValueContext& ctx) {
    const auto c = tree_child(ctx.children.front());
    if (c.rule_index() == G::RuleDict) {
        ShapeValue v;
        v.kind = ShapeValue::Kind::dict;
        v.dict = dict(static_cast<G::DictContext&>(*c.rule));
        v.range = v.dict.range;
        return v;
    }
    if (c.rule_index() == G::RuleArray)
        return array(static_cast<G::ArrayContext&>(*c.rule));
    ShapeValue v;
    v.kind = c.token_type() == G::STRING ? ShapeValue::Kind::string : ShapeValue::Kind::word;
    v.text = text(*ctx.getStart());
    v.range = range(ctx);
    return v;
}

ShapeValue ShapeAstBuilder::array(G::ArrayContext& ctx) {
    ShapeValue v;
    v.kind = ShapeValue::Kind::array;
    for (auto* node : ctx.children)
        if (const auto c = tree_child(node); c.rule_index() == G::RuleValue)
            v.elements.push_back(value(static_cast<G::ValueContext&>(*c.rule)));
    v.range = range(ctx);
    return v;
}

std::string ShapeAstBuilder::text(antlr4::Token& token) {
    std::string raw = token.getText();
    if (token.getType() != G::STRING)
        return raw;
    const std::string_view body = std::string_view(raw).substr(1, raw.size() - 2);
    auto decoded = support::unescape_json(body);
    if (decoded)
        return std::move(*decoded);
    const auto& e = decoded.error();
    const SourceRange at = token_range(token);
    diags_.add(Code::shape_bad_escape, e.message,
               Location{SourceRange{static_cast<std::uint32_t>(at.begin + 1 + e.offset),
                                    static_cast<std::uint32_t>(at.begin + 1 + e.offset + e.length)},
                        {}});
    return std::string(body);
}

} // namespace jobspec::syntax
