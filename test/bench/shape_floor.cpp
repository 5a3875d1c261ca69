// The floor under the shape parser (issue 32): our lexer, then a hand-written
// recursive-descent recogniser of grammar/Shape.g4 over its tokens, in place of the
// ANTLR parser. It builds nothing and reports nothing, so it is what no parser of this
// grammar can beat; stage_parse/* (bench_shape.cpp) is measured against it. It lives
// here, not in the library: the library's parser is the grammar.
#include <cstddef>

#include <benchmark/benchmark.h>

#include "Shape.h"
#include "shape_samples.hpp"
#include "syntax/shape_lexer.hpp"

namespace {

using G = jobspec::grammar::Shape;

/// shape : list EOF, over the lexer's tokens.
class Recogniser {
public:
    explicit Recogniser(const jobspec::syntax::TokenListSource& source)
        : tokens_(source.tokens()) {}

    bool shape() { return list() && at(G::EOF); }

private:
    std::size_t type() const {
        return next_ < tokens_.size() ? tokens_[next_].getType() : std::size_t(G::EOF);
    }
    bool at(std::size_t t) const { return type() == t; }
    bool take(std::size_t t) {
        if (!at(t))
            return false;
        ++next_;
        return true;
    }
    /// open (element (separator element)*)? close
    template <class Element>
    bool bracketed(std::size_t open, std::size_t separator, std::size_t close, Element element) {
        if (!take(open))
            return false;
        if (take(close))
            return true;
        do {
            if (!element())
                return false;
        } while (take(separator));
        return take(close);
    }
    /// list : '[' (vertex (';' vertex)*)? ']' | vertex
    bool list() {
        return at(G::LBRACK) ? bracketed(G::LBRACK, G::SEMI, G::RBRACK, [&] { return vertex(); })
                             : vertex();
    }
    /// vertex : name ('=' COUNT)? dict? ('/' list)?
    bool vertex() {
        if (!name() || (take(G::EQUALS) && !take(G::COUNT)))
            return false;
        if (at(G::LBRACE) && !dict())
            return false;
        return !take(G::SLASH) || list();
    }
    /// dict : '{' (item (',' item)*)? '}'
    bool dict() { return bracketed(G::LBRACE, G::COMMA, G::RBRACE, [&] { return item(); }); }
    /// item : name ':' value | ('+' | '-')? name
    bool item() {
        if (take(G::PLUS) || take(G::MINUS))
            return name();
        return name() && (!take(G::COLON) || value());
    }
    bool name() { return take(G::NAME) || take(G::STRING); }
    /// value : name | dict | '[' (value (',' value)*)? ']'
    bool value() {
        if (at(G::LBRACE))
            return dict();
        if (at(G::LBRACK))
            return bracketed(G::LBRACK, G::COMMA, G::RBRACK, [&] { return value(); });
        return name();
    }

    const std::vector<jobspec::syntax::SpanToken>& tokens_;
    std::size_t next_ = 0;
};

void floor_lex(benchmark::State& state, const std::string& shape) {
    for (auto _ : state) {
        jobspec::Diagnostics d;
        jobspec::syntax::ShapeTokenSource source(shape, {}, d);
        benchmark::DoNotOptimize(source.tokens().size());
    }
}
BENCHMARK_CAPTURE(floor_lex, small, bench::small_shape);
BENCHMARK_CAPTURE(floor_lex, vertices_50, bench::large_shape());

void floor_lex_and_recognise(benchmark::State& state, const std::string& shape) {
    for (auto _ : state) {
        jobspec::Diagnostics d;
        jobspec::syntax::ShapeTokenSource source(shape, {}, d);
        if (!Recogniser(source).shape())
            state.SkipWithError("the floor's recogniser refused the shape");
    }
}
BENCHMARK_CAPTURE(floor_lex_and_recognise, small, bench::small_shape);
BENCHMARK_CAPTURE(floor_lex_and_recognise, vertices_50, bench::large_shape());

} // namespace
