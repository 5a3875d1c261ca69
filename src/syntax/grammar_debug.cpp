// The grammar debugger's view of a parse: it watches the real parsers through a
// ParseObserver, swapping in a profiling ATN simulator and listeners for the length of it.
#include "syntax/grammar_debug.hpp"

#include <limits>

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include "ConstraintQuery.h"
#include "Dependency.h"
#include "Directives.h"
#include "Shape.h"
#include "support/json_string.hpp"
#include "syntax/directives.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/shape_parser.hpp"
#include "syntax/token_list_source.hpp"
#include "syntax/token_list_stream.hpp"
#include "syntax/token_ranges.hpp"

namespace jobspec::syntax {

namespace {

using antlr4::Parser;
using antlr4::ParserRuleContext;
using antlr4::Token;

/// The vocabulary of a generated parser (a static of the generated code).
template <class GeneratedParser>
const antlr4::dfa::Vocabulary& vocabulary_of() {
    TokenListSource empty("vocabulary");
    empty.finish("", 1, 0);
    TokenListStream stream(empty);
    GeneratedParser parser(&stream);
    return parser.getVocabulary();
}

const antlr4::dfa::Vocabulary& vocabulary(Grammar grammar) {
    switch (grammar) {
    case Grammar::shape:
        return vocabulary_of<grammar::Shape>();
    case Grammar::dependency:
        return vocabulary_of<grammar::Dependency>();
    case Grammar::directives:
        return vocabulary_of<grammar::Directives>();
    case Grammar::constraint:
        break;
    }
    return vocabulary_of<grammar::ConstraintQuery>();
}

std::string type_name(const antlr4::dfa::Vocabulary& vocabulary, std::size_t type) {
    if (type == Token::EOF)
        return "EOF";
    std::string name = vocabulary.getSymbolicName(type);
    return name.empty() ? std::to_string(type) : name;
}

/// A token's range, unknown for one the parser conjured while recovering.
SourceRange range_of(const Token& token) {
    if (token.getStartIndex() == std::numeric_limits<std::size_t>::max())
        return {};
    return token_range(token);
}

std::string rule_name(const Parser& parser, std::size_t rule) {
    const auto& names = parser.getRuleNames();
    return rule < names.size() ? names[rule] : fmt::format("rule {}", rule);
}

/// "NAME "slot" at 1:1": a token as the trace and reports name it.
std::string describe(const antlr4::dfa::Vocabulary& vocabulary, const Token* token) {
    if (token == nullptr)
        return "nothing";
    if (token->getType() == Token::EOF)
        return fmt::format("EOF at {}:{}", token->getLine(), token->getCharPositionInLine() + 1);
    return fmt::format("{} {} at {}:{}", type_name(vocabulary, token->getType()),
                       support::json_quoted(token->getText()), token->getLine(),
                       token->getCharPositionInLine() + 1);
}

/// "1, 2": the alternatives set in `alts`.
std::string alternatives(const antlrcpp::BitSet& alts) {
    std::string out;
    for (std::size_t i = 0; i < alts.size(); ++i) {
        if (alts.test(i))
            out += (out.empty() ? "" : ", ") + std::to_string(i);
    }
    return out;
}

/// The trace being written: lines indented by rule depth, at most max_trace_lines.
class TraceLog {
public:
    explicit TraceLog(std::vector<std::string>& lines) : lines_(lines) {}

    void add(const std::string& line) {
        if (lines_.size() < max_trace_lines) {
            lines_.push_back(std::string(2 * depth_, ' ') + line);
        } else if (!cut_) {
            cut_ = true;
            lines_.push_back(fmt::format("... (the trace stops after {} lines)", max_trace_lines));
        }
    }
    void enter() noexcept { ++depth_; }
    void exit() noexcept { depth_ = depth_ > 0 ? depth_ - 1 : 0; }

private:
    std::vector<std::string>& lines_;
    std::size_t depth_ = 0;
    bool cut_ = false;
};

/// Rule entries and exits and the tokens the parser consumes, in the order they happen.
class TraceListener final : public antlr4::tree::ParseTreeListener {
public:
    TraceListener(TraceLog& log, const antlr4::dfa::Vocabulary& vocabulary, const Parser& parser)
        : log_(log), vocabulary_(vocabulary), parser_(parser) {}

    void enterEveryRule(ParserRuleContext* ctx) override {
        log_.add(fmt::format("enter {} at {}", rule_name(parser_, ctx->getRuleIndex()),
                             describe(vocabulary_, ctx->getStart())));
        log_.enter();
    }
    void exitEveryRule(ParserRuleContext* ctx) override {
        log_.exit();
        log_.add("exit " + rule_name(parser_, ctx->getRuleIndex()));
    }
    void visitTerminal(antlr4::tree::TerminalNode* node) override {
        log_.add("consume " + describe(vocabulary_, node->getSymbol()));
    }
    void visitErrorNode(antlr4::tree::ErrorNode* node) override {
        log_.add("recover over " + describe(vocabulary_, node->getSymbol()));
    }

private:
    TraceLog& log_;
    const antlr4::dfa::Vocabulary& vocabulary_;
    const Parser& parser_;
};

/// ANTLR's profiling simulator, also writing each prediction to the trace.
class TracingSimulator final : public antlr4::atn::ProfilingATNSimulator {
public:
    TracingSimulator(Parser* owner, TraceLog* log, const antlr4::dfa::Vocabulary& vocabulary)
        : ProfilingATNSimulator(owner), log_(log), vocabulary_(vocabulary) {}

    std::size_t adaptivePredict(antlr4::TokenStream* input, std::size_t decision,
                                ParserRuleContext* outer) override {
        const Token* at = input->LT(1);
        const std::size_t alt = ProfilingATNSimulator::adaptivePredict(input, decision, outer);
        if (log_ != nullptr) {
            const auto start = static_cast<long long>(at->getTokenIndex());
            std::string line =
                fmt::format("predict decision {} ({}) at {}: alternative {}, SLL looked at {}",
                            decision, rule_name(*parser, atn.decisionToState[decision]->ruleIndex),
                            describe(vocabulary_, at), alt, tokens(_sllStopIndex - start + 1));
            if (_llStopIndex >= 0)
                line += fmt::format(", full LL at {}", tokens(_llStopIndex - start + 1));
            log_->add(line);
        }
        return alt;
    }

private:
    static std::string tokens(long long n) {
        return fmt::format("{} token{}", n, n == 1 ? "" : "s");
    }

    TraceLog* log_;
    const antlr4::dfa::Vocabulary& vocabulary_;
};

/// ANTLR's diagnostic-mode reports, in words.
class ReportListener final : public antlr4::BaseErrorListener {
public:
    explicit ReportListener(std::vector<std::string>& reports) : reports_(reports) {}

    void reportAmbiguity(Parser* parser, const antlr4::dfa::DFA& dfa, std::size_t start,
                         std::size_t stop, bool exact, const antlrcpp::BitSet& alts,
                         antlr4::atn::ATNConfigSet* configs) override {
        add(parser, dfa, start, stop,
            fmt::format("ambiguity{}: alternatives {} all match", exact ? "" : " (not exact)",
                        alternatives(alts.count() > 0 ? alts : configs->getAlts())));
    }
    void reportAttemptingFullContext(Parser* parser, const antlr4::dfa::DFA& dfa, std::size_t start,
                                     std::size_t stop, const antlrcpp::BitSet& alts,
                                     antlr4::atn::ATNConfigSet* configs) override {
        add(parser, dfa, start, stop,
            fmt::format("SLL conflict between alternatives {}, retrying with full context",
                        alternatives(alts.count() > 0 ? alts : configs->getAlts())));
    }
    void reportContextSensitivity(Parser* parser, const antlr4::dfa::DFA& dfa, std::size_t start,
                                  std::size_t stop, std::size_t prediction,
                                  antlr4::atn::ATNConfigSet* /*configs*/) override {
        add(parser, dfa, start, stop,
            fmt::format("context-sensitive: full context chose alternative {}", prediction));
    }

private:
    void add(Parser* parser, const antlr4::dfa::DFA& dfa, std::size_t start, std::size_t stop,
             const std::string& what) {
        auto* input = parser->getTokenStream();
        const Token* first = input->get(start);
        reports_.push_back(
            fmt::format("decision {} ({}) over {} at {}:{}: {}", dfa.decision,
                        rule_name(*parser, dfa.atnStartState->ruleIndex),
                        support::json_quoted(input->getText(antlr4::misc::Interval(start, stop))),
                        first->getLine(), first->getCharPositionInLine() + 1, what));
    }

    std::vector<std::string>& reports_;
};

ParseTreeNode convert(antlr4::tree::ParseTree* tree, const Parser& parser,
                      const antlr4::dfa::Vocabulary& vocabulary) {
    ParseTreeNode node;
    if (auto* terminal = dynamic_cast<antlr4::tree::TerminalNode*>(tree)) {
        const Token& token = *terminal->getSymbol();
        node.rule = false;
        node.error = dynamic_cast<antlr4::tree::ErrorNode*>(tree) != nullptr;
        node.name = type_name(vocabulary, token.getType());
        node.text = token.getType() == Token::EOF ? std::string() : token.getText();
        node.range = range_of(token);
        return node;
    }
    auto& ctx = dynamic_cast<ParserRuleContext&>(*tree);
    node.name = rule_name(parser, ctx.getRuleIndex());
    const SourceRange first = ctx.getStart() != nullptr ? range_of(*ctx.getStart()) : SourceRange{};
    const SourceRange last = ctx.getStop() != nullptr ? range_of(*ctx.getStop()) : SourceRange{};
    if (first.known())
        node.range = {first.begin,
                      last.known() && last.end >= first.begin ? last.end : first.begin};
    node.children.reserve(ctx.children.size());
    for (auto* child : ctx.children)
        node.children.push_back(convert(child, parser, vocabulary));
    return node;
}

/// Watches one parse and fills a DebugParse.
class DebugObserver final : public ParseObserver {
public:
    DebugObserver(const InspectOptions& options, const antlr4::dfa::Vocabulary& vocabulary,
                  DebugParse& out)
        : options_(options), vocabulary_(vocabulary), out_(out), log_(out.trace),
          reports_(out.reports) {}

    void lexed(const TokenListSource& source) override {
        for (const auto& token : source.tokens()) {
            GrammarToken info;
            info.index = out_.tokens.size();
            info.type = type_name(vocabulary_, token.getType());
            if (token.getType() != Token::EOF)
                info.text = token.getText();
            info.line = token.getLine();
            info.column = token.getCharPositionInLine() + 1;
            info.range = range_of(token);
            out_.tokens.push_back(std::move(info));
        }
    }

    void parsing(Parser& parser) override {
        // The parser deletes the simulator it had and owns ours from here on.
        simulator_ = new TracingSimulator(&parser, options_.trace ? &log_ : nullptr, vocabulary_);
        simulator_->setPredictionMode(options_.sll ? antlr4::atn::PredictionMode::SLL
                                      : options_.ambiguities
                                          ? antlr4::atn::PredictionMode::LL_EXACT_AMBIG_DETECTION
                                          : antlr4::atn::PredictionMode::LL);
        parser.setInterpreter(simulator_);
        if (options_.trace) {
            listener_.emplace(log_, vocabulary_, parser);
            parser.addParseListener(&*listener_);
        }
        if (options_.ambiguities)
            parser.addErrorListener(&reports_);
    }

    void parsed(Parser& parser, ParserRuleContext* tree) override {
        if (tree != nullptr)
            out_.tree = convert(tree, parser, vocabulary_);
        if (options_.trace)
            summarize(parser);
        parser.removeParseListeners();
        parser.removeErrorListeners();
    }

private:
    /// Each decision the parse made: how often, how far it looked, whether SLL sufficed.
    void summarize(const Parser& parser) {
        for (const auto& d : simulator_->getDecisionInfo()) {
            if (d.invocations == 0)
                continue;
            log_.add(fmt::format(
                "decision {} ({}): {} prediction{}, SLL lookahead {}-{}, {} full-LL fallback{}, "
                "{} ambiguit{}",
                d.decision,
                rule_name(parser, simulator_->atn.decisionToState[d.decision]->ruleIndex),
                d.invocations, d.invocations == 1 ? "" : "s", d.SLL_MinLook, d.SLL_MaxLook,
                d.LL_Fallback, d.LL_Fallback == 1 ? "" : "s", d.ambiguities.size(),
                d.ambiguities.size() == 1 ? "y" : "ies"));
        }
    }

    const InspectOptions& options_;
    const antlr4::dfa::Vocabulary& vocabulary_;
    DebugParse& out_;
    TraceLog log_;
    ReportListener reports_;
    std::optional<TraceListener> listener_;
    TracingSimulator* simulator_ = nullptr;
};

} // namespace

DebugParse debug_parse(Grammar grammar, std::string_view text, const InspectOptions& options) {
    DebugParse out;
    out.diagnostics = Diagnostics(options.limits.max_diagnostics);
    DebugObserver observer(options, vocabulary(grammar), out);
    switch (grammar) {
    case Grammar::shape:
        // The debugger shows an AST only for a parse without syntax errors.
        if (auto parsed = parse_shape(text, options.limits, out.diagnostics, &observer);
            parsed && !parsed->recovered)
            out.ast = std::move(parsed->ast);
        break;
    case Grammar::dependency:
        if (auto ast = parse_dependency_uri(text, options.limits, out.diagnostics, &observer))
            out.ast = std::move(*ast);
        break;
    case Grammar::constraint:
        if (auto parsed = parse_query(text, options.limits, out.diagnostics, &observer);
            parsed && !parsed->recovered)
            out.ast = std::move(parsed->ast);
        break;
    case Grammar::directives:
        if (auto directives = read_directives(text, out.diagnostics, &observer);
            !out.diagnostics.has_errors())
            out.ast = std::move(directives);
        break;
    }
    out.diagnostics.sort_by_position();
    return out;
}

} // namespace jobspec::syntax
