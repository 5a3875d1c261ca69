// The grammar debugger's views as text: tokens, parse trees, the IR, diagnostics. The
// golden tests compare exactly these texts, so their format is part of what the tests
// pin down.
#include <jobspec/grammar_view_text.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <jobspec/emit.hpp>
#include <jobspec/text.hpp>

#include "emit/debug_text.hpp"
#include "emit/dot_text.hpp"
#include "support/indented_lines.hpp"
#include "support/json_string.hpp"

namespace jobspec {

namespace {

using emit::dot_quoted;
using support::IndentedLines;
using support::json_quoted;

void tree_lines(const ParseTreeNode& node, std::size_t depth, IndentedLines& out) {
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
    std::string graph(const ParseTreeNode& tree) {
        out_ = "digraph parse_tree {\n  ordering=out;\n"
               "  node [fontname=\"Helvetica\"];\n";
        node(tree);
        return out_ + "}\n";
    }

private:
    std::string node(const ParseTreeNode& n) {
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

// --- ResourceGraph IR ------------------------------------------------------------------

void ir_lines(const ResourceVertex& v, std::size_t depth, IndentedLines& out) {
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

std::string tokens_text(const std::vector<GrammarToken>& tokens) {
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

std::string tree_text(const ParseTreeNode& tree, bool ranges) {
    IndentedLines out(ranges);
    tree_lines(tree, 0, out);
    return out.take();
}

std::string tree_dot(const ParseTreeNode& tree) {
    return TreeDot().graph(tree);
}

namespace emit {

std::string ir_text(const ResourceList& resources, bool ranges) {
    IndentedLines out(ranges);
    for (const auto& v : resources)
        ir_lines(v, 0, out);
    return out.take();
}

} // namespace emit

std::string diagnostics_text(const Diagnostics& diagnostics) {
    if (diagnostics.empty())
        return "(none)\n";
    std::string out;
    for (const auto& d : diagnostics) {
        out += fmt::format("{}[{}]", d.severity == Severity::error ? "error" : "warning",
                           d.code_name());
        if (d.location.range.known())
            out += support::range_text(d.location.range);
        if (!d.location.pointer.empty())
            out += " " + visible_text(d.location.pointer);
        out += ": " + visible_text(d.message) + "\n";
    }
    return out;
}

} // namespace jobspec
