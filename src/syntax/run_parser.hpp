// Running a generated parser over a token source: the part all three grammars share.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include <antlr4-runtime.h>
#include <rule_context_pool.hpp>

#include <jobspec/diagnostic.hpp>

#include "syntax/parse_observer.hpp"
#include "syntax/token_list_source.hpp"
#include "syntax/token_list_stream.hpp"

namespace jobspec::syntax {

namespace detail {

/// A token source with nothing but EOF, for parsers between inputs.
class EmptyTokenSource final : public TokenListSource {
public:
    EmptyTokenSource() : TokenListSource("<none>") { finish({}, 1, 0); }
};

/// One thread's parser for a grammar, kept between calls: constructing a generated parser
/// costs more than parsing a short input. Between calls it holds no input, no tree and
/// no tokens.
template <class Parser>
struct ReusableParser {
    // First, so that the thread's context pool outlives the parser and its contexts.
    grammar::RuleContextPool& pool = grammar::RuleContextPool::of_this_thread();
    EmptyTokenSource empty;
    TokenListStream tokens{empty};
    Parser parser{&tokens};

    ReusableParser() { parser.removeErrorListeners(); }
};

/// The first stage's strategy, the calling thread's (a strategy is reset by each parse).
inline const std::shared_ptr<antlr4::ANTLRErrorStrategy>& bail_strategy() {
    thread_local const std::shared_ptr<antlr4::ANTLRErrorStrategy> bail =
        std::make_shared<antlr4::BailErrorStrategy>();
    return bail;
}

} // namespace detail

/// Whether the parser builds a parse tree (children lists) or only fills the grammar's labels.
enum class ParseTree : bool { labels_only, build };

/// Whether `build` runs on a parse that had syntax errors (over what error recovery
/// made of it: labels of broken rules may be null, and missing tokens conjured), so that
/// the parts that did parse can still be checked.
enum class AfterErrors : bool { stop, build };

/// Parses `source`'s tokens with the entry rule `rule` and `strategy` and returns
/// `build(root)` while the contexts are alive. Nothing when lexing failed fatally, the
/// parse was cancelled, or `diagnostics` gained errors since `errors_before` (counted
/// before lexing) by the end of parsing or of building, unless `after_errors` is build:
/// then only a fatal lexer error or a cancelled parse gives nothing. The observer sees the tokens,
/// the parser before it runs, and the tree. Without an observer the parser is the calling
/// thread's own, reused, and builds a parse tree only when `tree` says so (labels_only
/// saves an allocation per token); with one it is fresh and always builds the tree,
/// since observers show it and change the parser's settings. `build` must not parse with
/// the same grammar: the thread's parser is busy.
template <class Parser, class Context, class Build>
auto run_parser(TokenListSource& source, Diagnostics& diagnostics, std::size_t errors_before,
                std::shared_ptr<antlr4::ANTLRErrorStrategy> strategy, ParseObserver* observer,
                ParseTree tree, Context* (Parser::*rule)(), Build&& build,
                AfterErrors after_errors = AfterErrors::stop)
    -> std::optional<decltype(build(std::declval<Context&>()))> {
    using Out = std::optional<decltype(build(std::declval<Context&>()))>;
    const auto failed = [&] {
        return after_errors == AfterErrors::stop && diagnostics.error_count() > errors_before;
    };
    if (observer != nullptr)
        observer->lexed(source);
    if (source.fatal())
        return std::nullopt;
    const auto run = [&](TokenListStream& tokens, Parser& parser) -> Out {
        Context* root = nullptr;
        const auto parse = [&] {
            try {
                root = (parser.*rule)();
            } catch (const antlr4::ParseCancellationException&) {
                root = nullptr;
            }
        };
        tokens.reset(source);
        if (observer == nullptr) {
            // Two stages: SLL prediction with no resynchronisation that stops at the
            // first syntax error, which is all a valid input needs; only an input that
            // fails it is parsed again with full LL, the strategy's recovery and its
            // diagnostics. (The observer sees the one full parse.)
            auto* simulator = parser.template getInterpreter<antlr4::atn::ParserATNSimulator>();
            parser.setErrorHandler(detail::bail_strategy());
            parser.setTokenStream(&tokens);
            simulator->setPredictionMode(antlr4::atn::PredictionMode::SLL);
            parse();
            simulator->setPredictionMode(antlr4::atn::PredictionMode::LL);
        }
        if (root == nullptr) {
            tokens.seek(0);
            // The strategy first: switching streams resets the parser and its strategy.
            parser.setErrorHandler(std::move(strategy));
            parser.setTokenStream(&tokens);
            if (observer != nullptr)
                observer->parsing(parser);
            parse();
            if (observer != nullptr)
                observer->parsed(parser, root);
        }
        if (root == nullptr || failed())
            return std::nullopt;
        Out out = build(*root);
        return failed() ? std::nullopt : std::move(out);
    };
    if (observer != nullptr) {
        TokenListStream tokens(source);
        Parser parser(&tokens);
        parser.removeErrorListeners();
        return run(tokens, parser);
    }
    thread_local detail::ReusableParser<Parser> reusable;
    reusable.parser.setBuildParseTree(tree == ParseTree::build);
    Out out = run(reusable.tokens, reusable.parser);
    // Let go of this input's tokens and tree now rather than at the next call.
    reusable.tokens.reset(reusable.empty);
    reusable.parser.setTokenStream(&reusable.tokens);
    return out;
}

} // namespace jobspec::syntax
