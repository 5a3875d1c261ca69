// The one place that wires the dependency token source, the generated parser and our
// error strategy together, and turns the parse tree into the AST.
#include "syntax/dependency_parser.hpp"

#include <memory>

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include "Dependency.h"
#include "support/utf8.hpp"
#include "syntax/dependency_lexer.hpp"
#include "syntax/error_strategy.hpp"

namespace jobspec::syntax {

namespace {

using G = grammar::Dependency;

int hex_value(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// A TEXT token's text with %XX decoded; reports bad escapes and invalid UTF-8.
std::string decoded(antlr4::tree::TerminalNode* node, Diagnostics& d) {
    if (node == nullptr)
        return {};
    const SourceRange at = token_range(*node->getSymbol());
    const std::string raw = node->getText();
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '%') {
            out += raw[i];
            continue;
        }
        const int hi = i + 1 < raw.size() ? hex_value(raw[i + 1]) : -1;
        const int lo = i + 2 < raw.size() ? hex_value(raw[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            const auto begin = at.begin + static_cast<std::uint32_t>(i);
            d.add(Code::dependency_percent_escape, "'%' must be followed by two hex digits",
                  Location{SourceRange{begin, std::min(at.end, begin + 3)}, {}},
                  "write a literal '%' as %25");
            return out;
        }
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    if (support::find_invalid_utf8(out) != std::string::npos)
        d.add(Code::dependency_invalid_utf8, "text is not valid UTF-8 once %XX is decoded",
              Location{at, {}});
    return out;
}

} // namespace

std::string describe_dependency_token(std::size_t type) {
    switch (type) {
    case G::NAME:
        return "a scheme";
    case G::COLON:
        return "':'";
    case G::TEXT:
        return "a name or value";
    case G::QUESTION:
        return "'?'";
    case G::EQUALS:
        return "'='";
    case G::AMP:
        return "'&'";
    case G::SEMI:
        return "';'";
    case antlr4::Token::EOF:
        return "end of input";
    default:
        return "a token";
    }
}

std::optional<DependencyAst> parse_dependency_uri(std::string_view text, const Limits& limits,
                                                  Diagnostics& diagnostics,
                                                  ParseObserver* observer) {
    if (text.size() > limits.max_input_bytes) {
        diagnostics.add(Code::limit_input_size,
                        fmt::format("dependency is {} bytes long, more than the limit of {}",
                                    text.size(), limits.max_input_bytes),
                        Location{SourceRange{0, 0}, {}});
        return std::nullopt;
    }
    const std::size_t errors_before = diagnostics.error_count();
    DependencyTokenSource source(text, diagnostics);
    if (observer != nullptr)
        observer->lexed(source);
    if (source.fatal())
        return std::nullopt;
    antlr4::CommonTokenStream tokens(&source);
    G parser(&tokens);
    parser.removeErrorListeners();
    // A URI is short and flat: the first syntax error says it all, the rest would cascade.
    parser.setErrorHandler(std::make_shared<ErrorStrategy>(diagnostics, Code::dependency_syntax,
                                                           describe_dependency_token, 1));
    G::DependencyContext* tree = nullptr;
    if (observer != nullptr)
        observer->parsing(parser);
    try {
        tree = parser.dependency();
    } catch (const antlr4::ParseCancellationException&) {
        if (observer != nullptr)
            observer->parsed(parser, nullptr);
        return std::nullopt;
    }
    if (observer != nullptr)
        observer->parsed(parser, tree);
    if (diagnostics.error_count() > errors_before)
        return std::nullopt;

    DependencyAst ast;
    ast.scheme = tree->NAME()->getText();
    ast.scheme_range = token_range(*tree->NAME()->getSymbol());
    if (tree->COLON() != nullptr) {
        ast.value = decoded(tree->TEXT(), diagnostics);
        const SourceRange colon = token_range(*tree->COLON()->getSymbol());
        ast.value_range = tree->TEXT() != nullptr ? token_range(*tree->TEXT()->getSymbol())
                                                  : SourceRange{colon.end, colon.end};
    }
    if (auto* query = tree->query()) {
        for (auto* o : query->param()) {
            DependencyAst::Option option;
            auto* key = o->TEXT(0);
            option.key = decoded(key, diagnostics);
            option.key_range = token_range(*key->getSymbol());
            auto* value = o->TEXT(1);
            option.value = decoded(value, diagnostics);
            const SourceRange equals = token_range(*o->EQUALS()->getSymbol());
            option.value_range = value != nullptr ? token_range(*value->getSymbol())
                                                  : SourceRange{equals.end, equals.end};
            ast.options.push_back(std::move(option));
        }
    }
    if (diagnostics.error_count() > errors_before)
        return std::nullopt;
    return ast;
}

} // namespace jobspec::syntax
