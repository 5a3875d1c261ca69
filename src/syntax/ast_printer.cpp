#include "syntax/ast_printer.hpp"

#include <algorithm>

#include "support/indented_lines.hpp"
#include "support/json_string.hpp"

namespace jobspec::syntax {

namespace {

using support::IndentedLines;
using support::json_quoted;

// --- Shape AST -------------------------------------------------------------------------

void dict_lines(const ShapeDict& dict, std::size_t depth, IndentedLines& out);

void value_lines(const ShapeValue& value, std::size_t depth, IndentedLines& out) {
    using Kind = ShapeValue::Kind;
    switch (value.kind) {
    case Kind::word:
        out.add(depth, "Word " + json_quoted(value.text), value.range);
        break;
    case Kind::string:
        out.add(depth, "String " + json_quoted(value.text), value.range);
        break;
    case Kind::dict:
        dict_lines(value.dict, depth, out);
        break;
    case Kind::array:
        out.add(depth, "Array", value.range);
        for (const auto& element : value.elements)
            value_lines(element, depth + 1, out);
        break;
    }
}

void dict_lines(const ShapeDict& dict, std::size_t depth, IndentedLines& out) {
    out.add(depth, "Dict", dict.range);
    for (const auto& item : dict.items) {
        std::string line = "Item " + json_quoted(item.key);
        if (item.sign != ShapeItem::Sign::none)
            line += item.sign == ShapeItem::Sign::plus ? " sign=+" : " sign=-";
        if (item.key_quoted)
            line += " quoted";
        out.add(depth + 1, line, item.range);
        if (item.value)
            value_lines(*item.value, depth + 2, out);
    }
}

void vertex_lines(const ShapeVertex& v, std::size_t depth, IndentedLines& out) {
    out.add(depth, "Vertex " + json_quoted(v.type), v.range);
    if (v.count)
        out.add(depth + 1, "Count " + json_quoted(v.count->text), v.count->range);
    if (v.dict)
        dict_lines(*v.dict, depth + 1, out);
    if (v.has_with) {
        const SourceRange all =
            v.with.empty() ? SourceRange{}
                           : SourceRange{v.with.front().range.begin, v.with.back().range.end};
        out.add(depth + 1, "With", all);
        for (const auto& child : v.with)
            vertex_lines(child, depth + 2, out);
    }
}

void ast_lines(const ShapeAst& ast, IndentedLines& out) {
    out.add(0, "Shape", ast.range);
    for (const auto& v : ast.vertices)
        vertex_lines(v, 1, out);
}

// --- Dependency AST --------------------------------------------------------------------

void ast_lines(const DependencyAst& ast, IndentedLines& out) {
    SourceRange all = ast.scheme_range;
    if (ast.value && ast.value_range.known())
        all.end = std::max(all.end, ast.value_range.end);
    if (!ast.options.empty() && ast.options.back().value_range.known())
        all.end = std::max(all.end, ast.options.back().value_range.end);
    out.add(0, "Dependency", all);
    out.add(1, "Scheme " + json_quoted(ast.scheme), ast.scheme_range);
    if (ast.value)
        out.add(1, "Value " + json_quoted(*ast.value), ast.value_range);
    for (const auto& option : ast.options) {
        out.add(1, "Option " + json_quoted(option.key), option.key_range);
        out.add(2, "Value " + json_quoted(option.value), option.value_range);
    }
}

// --- Constraint query AST --------------------------------------------------------------

void query_lines(const QueryNode& node, std::size_t depth, IndentedLines& out) {
    using Kind = QueryNode::Kind;
    switch (node.kind) {
    case Kind::term: {
        std::string line = "Term";
        if (!node.op.empty())
            line += " op=" + json_quoted(node.op);
        line += " " + json_quoted(node.operand);
        if (node.quoted)
            line += " quoted";
        out.add(depth, line, node.range);
        return;
    }
    case Kind::and_:
        out.add(depth, "And", node.range);
        break;
    case Kind::or_:
        out.add(depth, "Or", node.range);
        break;
    case Kind::not_:
        out.add(depth, "Not", node.range);
        break;
    }
    for (const auto& child : node.children)
        query_lines(child, depth + 1, out);
}

// --- Directives ------------------------------------------------------------------------

void ast_lines(const std::vector<Directive>& directives, IndentedLines& out) {
    out.add(0, "Directives", {});
    for (const auto& d : directives) {
        const auto at = static_cast<std::uint32_t>(d.offset);
        out.add(1, "Directive line=" + std::to_string(d.line), SourceRange{at, at});
        for (const auto& argument : d.arguments)
            out.add(2, "Argument " + json_quoted(argument), {});
    }
}

} // namespace

std::string ast_text(const DebugAst& ast, bool ranges) {
    IndentedLines out(ranges);
    if (const auto* shape = std::get_if<ShapeAst>(&ast))
        ast_lines(*shape, out);
    else if (const auto* dependency = std::get_if<DependencyAst>(&ast))
        ast_lines(*dependency, out);
    else if (const auto* query = std::get_if<QueryNode>(&ast))
        query_lines(*query, 0, out);
    else if (const auto* directives = std::get_if<std::vector<Directive>>(&ast))
        ast_lines(*directives, out);
    return out.take();
}

} // namespace jobspec::syntax
