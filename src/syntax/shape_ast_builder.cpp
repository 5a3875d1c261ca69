#include "syntax/shape_ast_builder.hpp"

#include "support/chars.hpp"
#include "support/json_string.hpp"
#include "syntax/token_ranges.hpp"

namespace jobspec::syntax {


ShapeAst ShapeAstBuilder::shape(G::ShapeContext& ctx) {
    return ShapeAst{list(ctx.body), ctx.body != nullptr ? rule_range(*ctx.body) : rule_range(ctx)};
}

std::vector<ShapeVertex> ShapeAstBuilder::list(G::ListContext* ctx) {
    std::vector<ShapeVertex> vertices;
    if (ctx == nullptr)
        return vertices;
    vertices.reserve(ctx->vertices.size());
    for (auto* v : ctx->vertices)
        if (auto built = vertex(*v))
            vertices.push_back(std::move(*built));
    if (vertices.empty() && !recovered_)
        diags_.add(Code::shape_empty_list, "empty list", Location{rule_range(*ctx), {}},
                   "a list needs at least one vertex");
    return vertices;
}

std::optional<ShapeVertex> ShapeAstBuilder::vertex(G::VertexContext& ctx) {
    if (ctx.kind == nullptr || !present(ctx.kind->text))
        return std::nullopt;
    ShapeVertex v;
    v.type = text(*ctx.kind->text);
    // An unquoted "slot" is the slot in any case (SLOT, Slot), as flux reads it.
    if (ctx.kind->text->getType() == G::NAME && support::equals_ignoring_case(v.type, "slot"))
        v.type = "slot";
    v.type_range = rule_range(*ctx.kind);
    if (ctx.amount != nullptr && present(ctx.amount->text))
        v.count = ShapeCount{ctx.amount->text->getText(), rule_range(*ctx.amount)};
    if (ctx.props != nullptr)
        v.dict = dict(*ctx.props);
    if (ctx.inner != nullptr) {
        v.with = list(ctx.inner);
        v.has_with = true;
    }
    v.range = rule_range(ctx);
    return v;
}

ShapeDict ShapeAstBuilder::dict(G::DictContext& ctx) {
    ShapeDict d;
    d.items.reserve(ctx.items.size());
    for (auto* i : ctx.items)
        if (auto built = item(*i))
            d.items.push_back(std::move(*built));
    d.range = rule_range(ctx);
    return d;
}

std::optional<ShapeItem> ShapeAstBuilder::item(G::ItemContext& ctx) {
    if (ctx.key == nullptr || !present(ctx.key->text))
        return std::nullopt;
    ShapeItem i;
    i.key = text(*ctx.key->text);
    i.key_quoted = ctx.key->text->getType() == G::STRING;
    i.key_range = rule_range(*ctx.key);
    if (ctx.sign != nullptr)
        i.sign = ctx.sign->getType() == G::PLUS ? ShapeItem::Sign::plus : ShapeItem::Sign::minus;
    // A broken "key:" has no value label, like a boolean key, but its rule failed.
    if (ctx.val != nullptr || ctx.exception != nullptr) {
        i.value = value(ctx.val);
        if (!i.value)
            return std::nullopt;
    }
    i.range = rule_range(ctx);
    return i;
}

std::optional<ShapeValue> ShapeAstBuilder::value(G::ValueContext* ctx) {
    if (ctx == nullptr)
        return std::nullopt;
    if (ctx->object != nullptr) {
        ShapeValue v;
        v.kind = ShapeValue::Kind::dict;
        v.dict = dict(*ctx->object);
        v.range = v.dict.range;
        return v;
    }
    if (ctx->elements != nullptr)
        return array(*ctx->elements);
    if (!present(ctx->text))
        return std::nullopt;
    ShapeValue v;
    v.kind = ctx->text->getType() == G::STRING ? ShapeValue::Kind::string : ShapeValue::Kind::word;
    v.text = text(*ctx->text);
    v.range = rule_range(*ctx);
    return v;
}

ShapeValue ShapeAstBuilder::array(G::ArrayContext& ctx) {
    ShapeValue v;
    v.kind = ShapeValue::Kind::array;
    v.elements.reserve(ctx.values.size());
    for (auto* element : ctx.values)
        if (auto built = value(element))
            v.elements.push_back(std::move(*built));
    v.range = rule_range(ctx);
    return v;
}
std::string ShapeAstBuilder::text(antlr4::Token& token) {
    std::string raw = token.getText();
    if (token.getType() != G::STRING)
        return raw;
    const std::string_view body = std::string_view(raw).substr(1, raw.size() - 2);
    if (raw.front() == '\'')
        return std::string(body);
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
