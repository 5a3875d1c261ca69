#include <string>

#include <doctest/doctest.h>

#include <jobspec/emit.hpp>
#include <jobspec/grammar_view.hpp>
#include <jobspec/shape.hpp>

#include "emit/dot_text.hpp"
#include "syntax/ast_printer.hpp"
#include "syntax/grammar_debug.hpp"

using jobspec::Grammar;
using jobspec::syntax::debug_parse;

namespace {

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("grammar debug - tokens, tree and AST of one parse") {
    const auto p = debug_parse(Grammar::shape, "slot=2{a}/core");
    REQUIRE(p.tokens.size() == 9);
    CHECK(p.tokens[2].type == "COUNT");
    CHECK(p.tokens[2].text == "2");
    CHECK(p.tokens[2].column == 6);
    CHECK(p.tokens.back().type == "EOF");
    REQUIRE(p.tree);
    CHECK(p.tree->name == "shape");
    CHECK(p.tree->range == jobspec::SourceRange{0, 14});
    CHECK(std::holds_alternative<jobspec::syntax::ShapeAst>(p.ast));
    CHECK(p.diagnostics.empty());
    CHECK(p.trace.empty());
}

TEST_CASE("grammar debug - recovery keeps a tree and marks what it skipped") {
    const auto p = debug_parse(Grammar::constraint, "a and or b");
    REQUIRE(p.tree);
    CHECK(std::holds_alternative<std::monostate>(p.ast));
    REQUIRE(p.diagnostics.size() == 1);
    CHECK(p.diagnostics[0].code_name() == "query.syntax");
    CHECK(jobspec::tree_text(*p.tree, false).find("OR \"or\" (error)") != std::string::npos);
}

TEST_CASE("grammar debug - a lexer error leaves tokens but no tree") {
    const auto p = debug_parse(Grammar::shape, "slot=\"abc");
    CHECK_FALSE(p.tree);
    CHECK(p.tokens.size() >= 2);
    CHECK(p.diagnostics[0].code_name() == "shape.unclosed-quote");
}

TEST_CASE("grammar debug - trace, decision statistics and its cap") {
    jobspec::InspectOptions options;
    options.trace = true;
    const auto p = debug_parse(Grammar::constraint, "host:a b", options);
    REQUIRE_FALSE(p.trace.empty());
    CHECK(p.trace.front() == "enter query at WORD \"host\" at 1:1");
    CHECK(p.trace.back().rfind("decision ", 0) == 0);
    std::string all;
    for (const auto& line : p.trace)
        all += line + "\n";
    CHECK(count(all, "enter term") == 2);
    CHECK(count(all, "exit term") == 2);
    CHECK(all.find("predict decision") != std::string::npos);

    std::string many;
    for (int i = 0; i < 30000; ++i)
        many += "a ";
    const auto big = debug_parse(Grammar::constraint, many, options);
    CHECK(big.trace.size() == jobspec::max_trace_lines + 1);
    CHECK(big.trace.back().find("trace stops") != std::string::npos);
    CHECK(big.diagnostics.empty());
}

TEST_CASE("grammar debug - SLL and diagnostic modes parse our grammars alike") {
    for (const auto grammar :
         {Grammar::shape, Grammar::dependency, Grammar::constraint, Grammar::directives}) {
        const char* text =
            grammar == Grammar::shape        ? "node/[socket=2/core;gpu{x}]"
            : grammar == Grammar::dependency ? "string:a?type=in&scope=user"
            : grammar == Grammar::directives
                ? "#!/bin/sh\n#flux: -N2 -S a='x y'\n#flux: --x=\"\"\"\n#flux: b\n#flux: \"\"\"\n"
                : "a|b -c:d (e f)";
        jobspec::InspectOptions options;
        options.sll = true;
        CHECK(debug_parse(grammar, text, options).diagnostics.empty());
        options.sll = false;
        options.ambiguities = true;
        const auto p = debug_parse(grammar, text, options);
        CHECK(p.diagnostics.empty());
        CHECK(p.reports.empty());
    }
}

TEST_CASE("grammar debug - the limits jobspec has") {
    jobspec::InspectOptions options;
    options.limits.max_input_bytes = 4;
    CHECK(debug_parse(Grammar::shape, "slot/core", options).diagnostics[0].code_name() ==
          "limit.input-size");
    std::string deep;
    for (int i = 0; i < 65; ++i)
        deep += "a/";
    deep += "b";
    const auto p = debug_parse(Grammar::shape, deep);
    CHECK(p.diagnostics[0].code_name() == "limit.depth");
    CHECK_FALSE(p.tree);
}

TEST_CASE("debug text - AST printers show what each grammar's AST holds") {
    CHECK(jobspec::syntax::ast_text(debug_parse(Grammar::dependency, "afterok:1").ast, false) ==
          "Dependency\n  Scheme \"afterok\"\n  Value \"1\"\n");
    CHECK(jobspec::syntax::ast_text(debug_parse(Grammar::constraint, "-x:\"a b\"").ast, true) ==
          "Not @[0,8)\n  Term op=\"x\" \"a b\" quoted @[1,8)\n");
    CHECK(jobspec::syntax::ast_text(debug_parse(Grammar::shape, "core{+a,-b}").ast, false) ==
          "Shape\n  Vertex \"core\"\n    Dict\n      Item \"a\" sign=+\n      Item \"b\" sign=-\n");
}

TEST_CASE("debug text - tree DOT") {
    const auto p = debug_parse(Grammar::shape, "core");
    REQUIRE(p.tree);
    const std::string dot = jobspec::tree_dot(*p.tree);
    CHECK(dot.rfind("digraph parse_tree {", 0) == 0);
    CHECK(dot.find("[label=\"NAME\\ncore\", shape=box]") != std::string::npos);
    CHECK(count(dot, " -> ") == 5); // shape->list->vertex->name->NAME, shape->EOF
}

TEST_CASE("resource DOT - labels, slot clusters, exclusive and tasks") {
    const auto r = jobspec::compile_shape("node=2+{x}/[slot=3-30{s}/core;gpu]");
    REQUIRE(r.ok());
    const std::string dot = jobspec::to_dot(r.value());
    CHECK(dot.find("v0 [label=\"node \u00d72+\\nexclusive\", style=\"rounded,bold\"];") !=
          std::string::npos);
    CHECK(dot.find("subgraph cluster_1 {") != std::string::npos);
    CHECK(dot.find("label=\"slot s \u00d73-30\";") != std::string::npos);
    CHECK(dot.find("v0 -> v2 [lhead=cluster_1];") != std::string::npos);
    CHECK(dot.find("v0 -> v3;") != std::string::npos);

    jobspec::Jobspec js;
    js.resources = r.value();
    jobspec::Task task;
    task.command = {"app", "--fast"};
    task.slot = "s";
    task.count.kind = jobspec::TaskCount::Kind::total;
    task.count.count = 8;
    js.tasks.push_back(task);
    const std::string with_task = jobspec::to_dot(js);
    CHECK(with_task.find("t0 [shape=note, style=\"\", label=\"app --fast\\n8 in total\"];") !=
          std::string::npos);
    CHECK(with_task.find("v2 -> t0 [ltail=cluster_1") != std::string::npos);
}

TEST_CASE("DOT strings take anything") {
    using jobspec::emit::dot_quoted;
    CHECK(dot_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(dot_quoted("line\nbreak\ttab") == "\"line\\nbreak tab\"");
    CHECK(dot_quoted("bad\xff") == "\"bad\xef\xbf\xbd\"");
    CHECK(dot_quoted("\xc6\x92") == "\"\xc6\x92\"");
}
