// Syntax errors from the generated parsers, reported as diagnostics in our own words.
#pragma once

#include <cstddef>
#include <string>

#include <DefaultErrorStrategy.h>

#include <jobspec/diagnostic.hpp>

namespace jobspec::syntax {

/// How a grammar's token types read in messages: "'['", "a name", "end of input".
using TokenDescriber = std::string (*)(std::size_t type);

/// ANTLR's default recovery with our reporting: each syntax error becomes one diagnostic
/// "expected X, found Y" over the offending token. After `max_errors` errors the parse
/// is cancelled with antlr4::ParseCancellationException, so recovery stays bounded.
class ErrorStrategy final : public antlr4::DefaultErrorStrategy {
public:
    ErrorStrategy(Diagnostics& sink, Code code, TokenDescriber describe, std::size_t max_errors)
        : sink_(sink), code_(code), describe_(describe), max_errors_(max_errors) {}

    std::size_t errors() const noexcept { return errors_; }

protected:
    void reportNoViableAlternative(antlr4::Parser* parser,
                                   const antlr4::NoViableAltException& e) override;
    void reportInputMismatch(antlr4::Parser* parser,
                             const antlr4::InputMismatchException& e) override;
    void reportFailedPredicate(antlr4::Parser* parser,
                               const antlr4::FailedPredicateException& e) override;
    void reportUnwantedToken(antlr4::Parser* parser) override;
    void reportMissingToken(antlr4::Parser* parser) override;

private:
    void report(const antlr4::Token* found, const antlr4::misc::IntervalSet& expected);

    Diagnostics& sink_;
    Code code_;
    TokenDescriber describe_;
    std::size_t max_errors_;
    std::size_t errors_ = 0;
};

} // namespace jobspec::syntax
