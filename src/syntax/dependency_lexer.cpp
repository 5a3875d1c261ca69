#include "syntax/dependency_lexer.hpp"

#include <fmt/format.h>

#include "Dependency.h"

namespace jobspec::syntax {

namespace {

using DependencyGrammar = grammar::Dependency;

bool dependency_scheme_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '+' || c == '.';
}

} // namespace

DependencyTokenSource::DependencyTokenSource(std::string_view text, Diagnostics& diagnostics)
    : TokenListSource("dependency") {
    const auto error = [&](std::size_t at, std::string message) {
        diagnostics.add(Code::dependency_syntax, std::move(message),
                        Location{SourceRange{static_cast<std::uint32_t>(at),
                                             static_cast<std::uint32_t>(at + 1)},
                                 {}});
        set_fatal();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7F) {
            error(i, fmt::format("unexpected control character U+{:04X}", c));
            return;
        }
    }
    std::size_t pos = 0;
    const auto run = [&](std::size_t type, auto stop) {
        const std::size_t start = pos;
        while (pos < text.size() && !stop(text[pos]))
            ++pos;
        if (pos > start)
            push(type, text, start, pos, 1, 0);
    };
    // The scheme, up to ':' or '?'.
    run(DependencyGrammar::NAME, [](char c) { return c == ':' || c == '?'; });
    if (pos > 0) {
        for (std::size_t i = 0; i < pos; ++i) {
            if (!dependency_scheme_char(text[i]) ||
                (i == 0 && !std::isalpha(static_cast<unsigned char>(text[0])))) {
                error(i, fmt::format("'{}' cannot be in a scheme name", text.substr(i, 1)));
                return;
            }
        }
    }
    if (pos < text.size() && text[pos] == ':') {
        push(DependencyGrammar::COLON, text, pos, pos + 1, 1, 0);
        ++pos;
        run(DependencyGrammar::TEXT, [](char c) { return c == '?'; });
    }
    if (pos < text.size() && text[pos] == '?') {
        push(DependencyGrammar::QUESTION, text, pos, pos + 1, 1, 0);
        ++pos;
        while (pos < text.size()) {
            const char c = text[pos];
            if (c == '=' || c == '&' || c == ';') {
                push(c == '=' ? DependencyGrammar::EQUALS
                              : (c == '&' ? DependencyGrammar::AMP : DependencyGrammar::SEMI),
                     text, pos, pos + 1, 1, 0);
                ++pos;
                continue;
            }
            run(DependencyGrammar::TEXT, [](char t) { return t == '=' || t == '&' || t == ';'; });
        }
    }
    finish(text, 1, 0);
}

} // namespace jobspec::syntax
