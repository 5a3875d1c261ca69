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
    return ShapeAst{list(*ctx.list()), range(*ctx.list())};
}

std::vector<ShapeVertex> ShapeAstBuilder::list(G::ListContext& ctx) {
    std::vector<ShapeVertex> vertices;
    const auto contexts = ctx.vertex();
    if (contexts.empty())
        diags_.add(Code::shape_empty_list, "empty list", Location{range(ctx), {}},
                   "a list needs at least one vertex");
    vertices.reserve(contexts.size());
    for (auto* v : contexts)
        vertices.push_back(vertex(*v));
    return vertices;
}

ShapeVertex ShapeAstBuilder::vertex(G::VertexContext& ctx) {
    ShapeVertex v;
    auto* name = ctx.name();
    v.type = text(*name->getStart());
    v.type_range = range(*name);
    if (auto* count = ctx.count())
        v.count = ShapeCount{count->getText(), range(*count)};
    if (auto* d = ctx.dict())
        v.dict = dict(*d);
    if (auto* with = ctx.list()) {
        v.with = list(*with);
        v.has_with = true;
    }
    v.range = range(ctx);
    return v;
}

ShapeDict ShapeAstBuilder::dict(G::DictContext& ctx) {
    ShapeDict d;
    for (auto* i : ctx.item())
        d.items.push_back(item(*i));
    d.range = range(ctx);
    return d;
}

ShapeItem ShapeAstBuilder::item(G::ItemContext& ctx) {
    ShapeItem i;
    auto* name = ctx.name();
    i.key = text(*name->getStart());
    i.key_quoted = name->STRING() != nullptr;
    i.key_range = range(*name);
    if (ctx.PLUS() != nullptr)
        i.sign = ShapeItem::Sign::plus;
    else if (ctx.MINUS() != nullptr)
        i.sign = ShapeItem::Sign::minus;
    if (auto* v = ctx.value())
        i.value = value(*v);
    i.range = range(ctx);
    return i;
}

ShapeValue ShapeAstBuilder::value(G::ValueContext& ctx) {
    if (auto* d = ctx.dict()) {
        ShapeValue v;
        v.kind = ShapeValue::Kind::dict;
        v.dict = dict(*d);
        v.range = v.dict.range;
        return v;
    }
    if (auto* a = ctx.array())
        return array(*a);
    ShapeValue v;
    v.kind = ctx.STRING() != nullptr ? ShapeValue::Kind::string : ShapeValue::Kind::word;
    v.text = text(*ctx.getStart());
    v.range = range(ctx);
    return v;
}

ShapeValue ShapeAstBuilder::array(G::ArrayContext& ctx) {
    ShapeValue v;
    v.kind = ShapeValue::Kind::array;
    for (auto* element : ctx.value())
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
