#include "emit/debug_text.hpp"

#include <jobspec/text.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <jobspec/emit.hpp>

#include "emit/dot_text.hpp"
#include "support/json_string.hpp"

namespace jobspec::emit {

namespace {

using support::json_quoted;

std::string range_text(SourceRange range) {
    if (!range.known())
        return " @?";
    return fmt::format(" @[{},{})", range.begin, range.end);
}

/// Lines indented two spaces a level, each optionally ending with a range.
class Lines {
public:
    explicit Lines(bool ranges) : ranges_(ranges) {}

    void add(std::size_t depth, const std::string& line, SourceRange range) {
        out_.append(2 * depth, ' ');
        out_ += line;
        if (ranges_)
            out_ += range_text(range);
        out_ += '\n';
    }
    std::string take() { return std::move(out_); }

private:
    bool ranges_;
    std::string out_;
};

void tree_lines(const syntax::ParseTreeNode& node, std::size_t depth, Lines& out) {
    if (node.rule) {
        out.add(depth, node.name, node.range);
        for (const auto& child : node.children)
            tree_lines(child, depth + 1, out);
        return;
    }
    std::string line = node.name;
    if (node.name != "EOF")
        line += " " + json_quoted(node.text);
    if (node.error)
        line += " (error)";
    out.add(depth, line, node.range);
}

class TreeDot {
public:
    std::string graph(const syntax::ParseTreeNode& tree) {
        out_ = "digraph parse_tree {\n  ordering=out;\n"
               "  node [fontname=\"Helvetica\"];\n";
        node(tree);
        return out_ + "}\n";
    }

private:
    std::string node(const syntax::ParseTreeNode& n) {
        std::string id = fmt::format("n{}", next_++);
        if (n.rule) {
            out_ += fmt::format("  {} [label={}, shape=ellipse];\n", id, dot_quoted(n.name));
        } else {
            const std::string label = n.name == "EOF" ? n.name : n.name + "\n" + n.text;
            out_ += fmt::format("  {} [label={}, shape=box{}];\n", id, dot_quoted(label),
                                n.error ? ", color=red, fontcolor=red" : "");
        }
        for (const auto& child : n.children)
            out_ += fmt::format("  {} -> {};\n", id, node(child));
        return id;
    }

    std::string out_;
    std::size_t next_ = 0;
};

// --- Shape AST -------------------------------------------------------------------------

void dict_lines(const syntax::ShapeDict& dict, std::size_t depth, Lines& out);

void value_lines(const syntax::ShapeValue& value, std::size_t depth, Lines& out) {
    using Kind = syntax::ShapeValue::Kind;
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

void dict_lines(const syntax::ShapeDict& dict, std::size_t depth, Lines& out) {
    out.add(depth, "Dict", dict.range);
    for (const auto& item : dict.items) {
        std::string line = "Item " + json_quoted(item.key);
        if (item.sign != syntax::ShapeItem::Sign::none)
            line += item.sign == syntax::ShapeItem::Sign::plus ? " sign=+" : " sign=-";
        if (item.key_quoted)
            line += " quoted";
        out.add(depth + 1, line, item.range);
        if (item.value)
            value_lines(*item.value, depth + 2, out);
    }
}

void vertex_lines(const syntax::ShapeVertex& v, std::size_t depth, Lines& out) {
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

void ast_lines(const syntax::ShapeAst& ast, Lines& out) {
    out.add(0, "Shape", ast.range);
    for (const auto& v : ast.vertices)
        vertex_lines(v, 1, out);
}

// --- Dependency AST --------------------------------------------------------------------

void ast_lines(const syntax::DependencyAst& ast, Lines& out) {
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

void query_lines(const syntax::QueryNode& node, std::size_t depth, Lines& out) {
    using Kind = syntax::QueryNode::Kind;
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

// --- ResourceGraph IR ------------------------------------------------------------------

void ir_lines(const ResourceVertex& v, std::size_t depth, Lines& out) {
    std::string line = visible_text(v.type) + " \u00d7" + v.count.format();
    for (const auto& p : v.properties) {
        std::string value = to_json_text(p.value);
        value.pop_back();
        line += " " + visible_text(p.key) + "=" + value;
    }
    out.add(depth, line, v.range);
    for (const auto& child : v.with)
        ir_lines(child, depth + 1, out);
}

} // namespace

std::string tokens_text(const std::vector<syntax::TokenInfo>& tokens) {
    std::size_t type_width = 4, text_width = 4;
    std::vector<std::string> texts;
    texts.reserve(tokens.size());
    for (const auto& t : tokens) {
        texts.push_back(t.type == "EOF" ? std::string() : json_quoted(t.text));
        type_width = std::max(type_width, t.type.size());
        text_width = std::min<std::size_t>(std::max(text_width, texts.back().size()), 40);
    }
    std::string out = fmt::format("{:<5} {:<{}} {:<{}} {}\n", "index", "type", type_width, "text",
                                  text_width, "line:column");
    for (std::size_t i = 0; i < tokens.size(); ++i)
        out += fmt::format("{:<5} {:<{}} {:<{}} {}:{}\n", tokens[i].index, tokens[i].type,
                           type_width, texts[i], text_width, tokens[i].line, tokens[i].column);
    return out;
}

std::string tree_text(const syntax::ParseTreeNode& tree, bool ranges) {
    Lines out(ranges);
    tree_lines(tree, 0, out);
    return out.take();
}

std::string tree_dot(const syntax::ParseTreeNode& tree) {
    return TreeDot().graph(tree);
}

std::string ast_text(const syntax::DebugAst& ast, bool ranges) {
    Lines out(ranges);
    if (const auto* shape = std::get_if<syntax::ShapeAst>(&ast))
        ast_lines(*shape, out);
    else if (const auto* dependency = std::get_if<syntax::DependencyAst>(&ast))
        ast_lines(*dependency, out);
    else if (const auto* query = std::get_if<syntax::QueryNode>(&ast))
        query_lines(*query, 0, out);
    return out.take();
}

std::string ir_text(const ResourceList& resources, bool ranges) {
    Lines out(ranges);
    for (const auto& v : resources)
        ir_lines(v, 0, out);
    return out.take();
}

std::string diagnostics_text(const Diagnostics& diagnostics) {
    if (diagnostics.empty())
        return "(none)\n";
    std::string out;
    for (const auto& d : diagnostics) {
        out += fmt::format("{}[{}]", d.severity == Severity::error ? "error" : "warning",
                           d.code_name());
        if (d.location.range.known())
            out += range_text(d.location.range);
        if (!d.location.pointer.empty())
            out += " " + visible_text(d.location.pointer);
        out += ": " + visible_text(d.message) + "\n";
    }
    return out;
}

} // namespace jobspec::emit
