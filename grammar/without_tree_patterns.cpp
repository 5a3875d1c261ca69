// For programs that link the static ANTLR runtime: the three members of its
// ParseTreePatternMatcher that the runtime's Parser.o refers to (for
// Parser::compileParseTreePattern, which jobspec never calls), defined here so that the
// linker takes none of the runtime's parse-tree pattern and XPath objects. Their
// XPathLexer deserializes its ATN in a static initializer, which cost every process 0.28
// million instructions at start (a quarter of `jobspec --version`).
//
// They are defined by their mangled names: a C++ definition of a member of that class
// would refer to its vtable, which lives in the very object this keeps out. Should the
// runtime ever need more of that object, the link fails with duplicate symbols; the test
// `linked-symbols` checks that none of it is linked.
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void not_linked() noexcept {
    std::fputs("ANTLR's parse-tree patterns are not linked into this program\n", stderr);
    std::abort();
}

} // namespace

extern "C" {
// ParseTreePatternMatcher::ParseTreePatternMatcher(Lexer*, Parser*)
[[noreturn]] void jobspec_pattern_matcher_constructor()
    __asm__("_ZN6antlr44tree7pattern23ParseTreePatternMatcherC1EPNS_5LexerEPNS_6ParserE");
// ParseTreePatternMatcher::~ParseTreePatternMatcher()
[[noreturn]] void jobspec_pattern_matcher_destructor()
    __asm__("_ZN6antlr44tree7pattern23ParseTreePatternMatcherD1Ev");
// ParseTreePatternMatcher::compile(const std::string&, int)
[[noreturn]] void jobspec_pattern_matcher_compile() __asm__(
    "_ZN6antlr44tree7pattern23ParseTreePatternMatcher7compileERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEi");

void jobspec_pattern_matcher_constructor() { not_linked(); }
void jobspec_pattern_matcher_destructor() { not_linked(); }
void jobspec_pattern_matcher_compile() { not_linked(); }
}
