#include "syntax/flux_query_parser.hpp"

#include <antlr4-runtime.h>

#include <fmt/format.h>

#include "ConstraintQuery.h"
#include "support/input_limit.hpp"
#include "support/utf8.hpp"
#include "syntax/query_lexer.hpp"
#include "syntax/run_parser.hpp"

namespace jobspec::syntax {

namespace {

using QueryGrammar = grammar::ConstraintQuery;
using Step = FluxQueryStep;

/// Stops the parse at the first syntax error, noting the token it is at.
class FirstError final : public antlr4::BailErrorStrategy {
public:
    std::optional<std::size_t> token;

    void recover(antlr4::Parser* parser, std::exception_ptr e) override {
        try {
            std::rethrow_exception(e);
        } catch (const antlr4::RecognitionException& r) {
            note(r.getOffendingToken());
        } catch (...) {
            note(parser->getCurrentToken());
        }
        BailErrorStrategy::recover(parser, e);
    }

    antlr4::Token* recoverInline(antlr4::Parser* parser) override {
        note(parser->getCurrentToken());
        return BailErrorStrategy::recoverInline(parser);
    }

private:
    void note(const antlr4::Token* t) {
        if (!token && t != nullptr)
            token = t->getTokenIndex();
    }
};

/// The parse's labels -> flux's reduction steps, in order: a term when it is read, an
/// operator once both its sides are.
class StepBuilder {
public:
    explicit StepBuilder(std::vector<Step>& steps) : steps_(steps) {}

    void expr(QueryGrammar::FluxExprContext* ctx) {
        or_(ctx->first);
        for (auto* c : ctx->continued) {
            operand(c->juxtaposed);
            emit(Step::Kind::and_);
            for (auto* a : c->ands) {
                operand(a);
                emit(Step::Kind::and_);
            }
            for (auto* o : c->ors) {
                and_(o);
                emit(Step::Kind::or_);
            }
        }
    }

private:
    void emit(Step::Kind kind) { steps_.push_back(Step{kind, 0}); }

    void term() { steps_.push_back(Step{Step::Kind::term, terms_++}); }

    void or_(QueryGrammar::FluxOrContext* ctx) {
        and_(ctx->operands.front());
        for (std::size_t i = 1; i < ctx->operands.size(); ++i) {
            and_(ctx->operands[i]);
            emit(Step::Kind::or_);
        }
    }

    void and_(QueryGrammar::FluxAndContext* ctx) {
        operand(ctx->operands.front());
        for (std::size_t i = 1; i < ctx->operands.size(); ++i) {
            operand(ctx->operands[i]);
            emit(Step::Kind::and_);
        }
    }

    void operand(QueryGrammar::FluxOperandContext* ctx) {
        primary(ctx->head);
        negations(ctx->negations);
    }

    void negations(const std::vector<QueryGrammar::FluxNegatedContext*>& list) {
        for (auto* n : list) {
            negated(n);
            emit(Step::Kind::and_);
        }
    }

    void negated(QueryGrammar::FluxNegatedContext* ctx) {
        if (ctx->negated != nullptr)
            operand(ctx->negated);
        else
            term();
        emit(Step::Kind::not_);
        negations(ctx->negations);
    }

    void primary(QueryGrammar::FluxPrimaryContext* ctx) {
        if (ctx->negation != nullptr)
            negated(ctx->negation);
        else if (ctx->group != nullptr)
            expr(ctx->group);
        else
            term();
    }

    std::vector<Step>& steps_;
    std::uint32_t terms_ = 0;
};

using Kind = FluxQueryError::Kind;

/// The parser's error at token `index` (the lexer's EOF when it is the last), as flux
/// words it: an unclosed or extra ')' counted over the tokens up to it, else the token.
/// Adds jobspec's diagnostic for it.
FluxQueryError syntax_error(const QueryTokenSource& source, std::size_t index,
                            std::string_view text, Diagnostics& diagnostics) {
    const auto& lexed = source.lexed();
    const bool at_end = index >= lexed.size();
    long depth = 0;
    const QueryTokenSource::Lexed* last_open = nullptr;
    for (std::size_t i = 0; i < lexed.size() && i <= index; ++i) {
        if (lexed[i].type == QueryGrammar::LPAREN) {
            ++depth;
            last_open = &lexed[i];
        } else if (lexed[i].type == QueryGrammar::RPAREN) {
            --depth;
        }
    }
    const auto report = [&](SourceRange at, std::string message, std::string help = {}) {
        diagnostics.add(Code::query_syntax, std::move(message), Location{at, {}}, std::move(help));
    };
    if (at_end && depth > 0) {
        report(last_open->range, "'(' is never closed", "add ')'");
        return FluxQueryError{Kind::unclosed_parenthesis, {}, last_open->position};
    }
    if (at_end) {
        const auto end = static_cast<std::uint32_t>(text.size());
        report(SourceRange{end, end}, "the query ends where a term is needed");
        return FluxQueryError{Kind::end_of_input, std::string(text), 0};
    }
    const auto& t = lexed[index];
    if (depth < 0) {
        report(t.range, "')' has no '('");
        return FluxQueryError{Kind::mismatched_parentheses, {}, t.position};
    }
    report(t.range, fmt::format("'{}' is not expected here", t.text));
    return FluxQueryError{Kind::invalid_token, t.text, t.position};
}

/// jobspec's diagnostic for a lexer error (a limit has one already).
void lexer_diagnostic(const QueryTokenSource::Stop& stop, Diagnostics& diagnostics) {
    const auto& e = stop.error;
    switch (e.kind) {
    case Kind::illegal_character: {
        const std::size_t length = support::utf8_sequence_length(e.text, 0);
        diagnostics.add(Code::query_syntax,
                        e.text == "\xEF\xBF\xBD"
                            ? std::string("text is not valid UTF-8")
                            : fmt::format("U+{:04X} is whitespace to Python, and flux's lexer "
                                          "neither skips it nor reads it in a term",
                                          support::decode_utf8(e.text, 0, length)),
                        Location{stop.range, {}});
        break;
    }
    case Kind::unclosed_quote:
        diagnostics.add(Code::query_unclosed_quote, fmt::format("{} is never closed", e.text),
                        Location{stop.range, {}}, fmt::format("add {} to end the operand", e.text));
        break;
    case Kind::missing_argument:
        diagnostics.add(Code::query_syntax, fmt::format("'{}' has no operand after it", e.text),
                        Location{stop.range, {}});
        break;
    default:
        break;
    }
}

/// How many WORDs come before token `index`.
std::size_t words_before(const QueryTokenSource& source, std::size_t index) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < index && i < source.lexed().size(); ++i)
        n += source.lexed()[i].type == QueryGrammar::WORD ? 1 : 0;
    return n;
}

} // namespace

FluxQuery parse_flux_query(std::string_view text, const Limits& limits) {
    FluxQuery out{{}, {}, {}, 0, Diagnostics(limits.max_diagnostics)};
    if (!support::within_input_limit(text, limits, "query", out.diagnostics)) {
        out.error = FluxQueryError{Kind::limit, {}, 0};
        return out;
    }
    QueryTokenSource source(text, limits, out.diagnostics, QueryGrouping::flux);
    out.terms.reserve(source.lexed().size());
    for (const auto& t : source.lexed())
        if (t.type == QueryGrammar::WORD)
            out.terms.push_back(FluxQueryTerm{t.text, t.position});

    // The thread's own, as its parser is (run_parser): most queries never need it.
    thread_local const auto first_error = std::make_shared<FirstError>();
    first_error->token.reset();
    std::vector<Step> steps;
    steps.reserve(2 * out.terms.size()); // a term and the operator joining it, mostly
    Diagnostics unused;
    const auto parsed =
        run_parser(source, unused, 0, first_error, nullptr, ParseTree::labels_only,
                   &QueryGrammar::fluxQuery, [&](QueryGrammar::FluxQueryContext& tree) {
                       StepBuilder(steps).expr(tree.body);
                       return true;
                   });

    // flux reads a term, then the token after it, and only then converts the term: a
    // lexer error there comes before the term's own error; a syntax error comes after.
    const auto& stop = source.stop();
    if (first_error->token && (!stop || *first_error->token < stop->at_token)) {
        out.error = syntax_error(source, *first_error->token, text, out.diagnostics);
        out.terms_before_error = words_before(source, *first_error->token);
    } else if (stop) {
        out.error = stop->error;
        lexer_diagnostic(*stop, out.diagnostics);
        out.terms_before_error = stop->at_token == 0 ? 0 : words_before(source, stop->at_token - 1);
    } else if (parsed) {
        out.steps = std::move(steps);
    }
    return out;
}

} // namespace jobspec::syntax
