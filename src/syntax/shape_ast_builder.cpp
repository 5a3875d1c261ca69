#include "syntax/shape_ast_builder.hpp"

#include "support/json_string.hpp"
#include "syntax/error_strategy.hpp"

namespace jobspec::syntax {

namespace {

SourceRange range(antlr4::ParserRuleContext& ctx) {
    return {token_range(*ctx.getStart()).begin, token_range(*ctx.getStop()).end};
}

} // namespace

ShapeAst ShapeAstBuilder::shape(G::ShapeContext& ctx) {
    return ShapeAst{list(*ctx.body), range(*ctx.body)};
}

std::vector<ShapeVertex> ShapeAstBuilder::list(G::ListContext& ctx) {
    std::vector<ShapeVertex> vertices;
    if (ctx.vertices.empty())
        diags_.add(Code::shape_empty_list, "empty list", Location{range(ctx), {}},
                   "a list needs at least one vertex");
    vertices.reserve(ctx.vertices.size());
    for (auto* v : ctx.vertices)
        vertices.push_back(vertex(*v));
    return vertices;
}

ShapeVertex ShapeAstBuilder::vertex(G::VertexContext& ctx) {
    ShapeVertex v;
    v.type = text(*ctx.kind->text);
    v.type_range = range(*ctx.kind);
    if (ctx.amount != nullptr)
        v.count = ShapeCount{ctx.amount->text->getText(), range(*ctx.amount)};
    if (ctx.props != nullptr)
        v.dict = dict(*ctx.props);
    if (ctx.inner != nullptr) {
        v.with = list(*ctx.inner);
        v.has_with = true;
    }
    v.range = range(ctx);
    return v;
}

ShapeDict ShapeAstBuilder::dict(G::DictContext& ctx) {
    ShapeDict d;
    d.items.reserve(ctx.items.size());
    for (auto* i : ctx.items)
        d.items.push_back(item(*i));
    d.range = range(ctx);
    return d;
}

ShapeItem ShapeAstBuilder::item(G::ItemContext& ctx) {
    ShapeItem i;
    i.key = text(*ctx.key->text);
    i.key_quoted = ctx.key->text->getType() == G::STRING;
    i.key_range = range(*ctx.key);
    if (ctx.sign != nullptr)
        i.sign = ctx.sign->getType() == G::PLUS ? ShapeItem::Sign::plus : ShapeItem::Sign::minus;
    if (ctx.val != nullptr)
        i.value = value(*ctx.val);
    i.range = range(ctx);
    return i;
}

ShapeValue ShapeAstBuilder::value(G::ValueContext& ctx) {
    if (ctx.object != nullptr) {
        ShapeValue v;
        v.kind = ShapeValue::Kind::dict;
        v.dict = dict(*ctx.object);
        v.range = v.dict.range;
        return v;
    }
    if (ctx.elements != nullptr)
        return array(*ctx.elements);
    ShapeValue v;
    v.kind = ctx.text->getType() == G::STRING ? ShapeValue::Kind::string : ShapeValue::Kind::word;
    v.text = text(*ctx.text);
    v.range = range(ctx);
    return v;
}

ShapeValue ShapeAstBuilder::array(G::ArrayContext& ctx) {
    ShapeValue v;
    v.kind = ShapeValue::Kind::array;
    v.elements.reserve(ctx.values.size());
    for (auto* element : ctx.values)
        v.elements.push_back(value(*element));
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
