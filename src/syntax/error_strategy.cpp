#include "syntax/error_strategy.hpp"
#include "syntax/token_ranges.hpp"

#include <antlr4-runtime.h>
#include <fmt/format.h>

namespace jobspec::syntax {

namespace {

/// How the offending token reads: "end of input", or its text in quotes, shortened.
std::string describe_found(const antlr4::Token* token) {
    if (token == nullptr || token->getType() == antlr4::Token::EOF)
        return "end of input";
    std::string text = token->getText();
    if (text.size() > 24)
        text = text.substr(0, 21) + "...";
    return fmt::format("'{}'", text);
}

/// "a", "a or b", "a, b or c".
std::string join_alternatives(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

} // namespace


void ErrorStrategy::report(const antlr4::Token* found, const antlr4::misc::IntervalSet& expected) {
    std::vector<std::string> names;
    for (const auto type : expected.toList())
        names.push_back(
            describe_(type == -1 ? antlr4::Token::EOF : static_cast<std::size_t>(type)));
    const std::string what = describe_found(found);
    std::string message =
        names.empty() ? fmt::format("unexpected {}", what)
                      : fmt::format("expected {}, found {}", join_alternatives(names), what);
    sink_.add(code_, std::move(message),
              Location{found != nullptr ? token_range(*found) : SourceRange{}, {}});
    if (++errors_ >= max_errors_)
        throw antlr4::ParseCancellationException();
}

void ErrorStrategy::reportNoViableAlternative(antlr4::Parser* /*parser*/,
                                              const antlr4::NoViableAltException& e) {
    report(e.getOffendingToken(), e.getExpectedTokens());
}

void ErrorStrategy::reportInputMismatch(antlr4::Parser* /*parser*/,
                                        const antlr4::InputMismatchException& e) {
    report(e.getOffendingToken(), e.getExpectedTokens());
}

void ErrorStrategy::reportFailedPredicate(antlr4::Parser* parser,
                                          const antlr4::FailedPredicateException& e) {
    report(e.getOffendingToken(), getExpectedTokens(parser));
}

void ErrorStrategy::reportUnwantedToken(antlr4::Parser* parser) {
    if (inErrorRecoveryMode(parser))
        return;
    beginErrorCondition(parser);
    report(parser->getCurrentToken(), getExpectedTokens(parser));
}

void ErrorStrategy::reportMissingToken(antlr4::Parser* parser) {
    if (inErrorRecoveryMode(parser))
        return;
    beginErrorCondition(parser);
    report(parser->getCurrentToken(), getExpectedTokens(parser));
}

} // namespace jobspec::syntax
