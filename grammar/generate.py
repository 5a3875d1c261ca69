#!/usr/bin/python3
"""Runs ANTLR, then makes each generated recognizer build its static data (the
deserialized ATN, its DFA cache) when the first one is constructed instead of when the
library is loaded: ANTLR 4.7.2's C++ target does it in a static Initializer object, which
made every process pay for every grammar (about 2 million instructions) whether or not it
parsed anything. A function-local static in the constructor runs the same Initializer
once, thread-safely.

Each rule also leaves through a plain scope guard rather than antlrcpp::finally, which
wraps its lambda in a std::function on every rule entered, and, with no parse listener,
without Parser::exitRule's dynamic_cast of the parent context: a rule context's parent is
a ParserRuleContext or null, so a static_cast is exact.

Every rule context class of a parser also takes its memory from a per-thread pool
(rule_context_pool.hpp): a parse frees all of its contexts at once, more than glibc's
per-thread cache keeps.

Usage: generate.py GENERATED_CPP ANTLR4 [ANTLR ARGUMENTS...]"""
import re
import subprocess
import sys


def lazy(text):
    """The generated .cpp with its Initializer run by the first constructor, and the
    ATN's self-check (a third of deserializing it) left to builds without NDEBUG: the
    test suite's builds check every grammar's ATN, release builds trust them."""
    text, removed = re.subn(r"^(\w+)::Initializer \1::_init;\n", "", text, flags=re.M)
    text, moved = re.subn(r"^(\w+)::\1\((?:TokenStream|CharStream) \*input\) : (?:Parser|Lexer)\(input\) \{\n",
                          lambda m: m.group(0) + "  static const Initializer initialized;\n",
                          text, flags=re.M)
    text, checked = re.subn(r"^  atn::ATNDeserializer deserializer;\n",
                            "  atn::ATNDeserializationOptions options;\n"
                            "#ifdef NDEBUG\n"
                            "  options.setVerifyATN(false);\n"
                            "#endif\n"
                            "  atn::ATNDeserializer deserializer(options);\n", text, flags=re.M)
    if removed != 1 or moved != 1 or checked != 1:
        raise SystemExit(f"generate.py: the generated code is not ANTLR 4.7.2's as expected "
                         f"({removed} initializers, {moved} constructors, {checked} deserializers)")
    return text


ON_EXIT = """
namespace {

/// Runs a rule's exit action when the rule's function returns or throws.
template <class Action>
struct OnRuleExit {
  Action action;
  ~OnRuleExit() { action(); }
};

template <class Action>
OnRuleExit<Action> on_rule_exit(Action action) { return OnRuleExit<Action>{action}; }

} // namespace
"""


EXIT_RULE = """    if (!_parseListeners.empty()) {
      exitRule();
      return;
    }
    _ctx->stop = _input->LT(_matchedEOF ? 1 : -1);
    setState(_ctx->invokingState);
    _ctx = static_cast<ParserRuleContext *>(_ctx->parent);
"""


def guarded(text):
    """The generated parser's rules with on_rule_exit in place of antlrcpp::finally, and
    Parser::exitRule's work inline."""
    text, guards = re.subn(r"^(  auto onExit = )finally\(\[=\] \{$", r"\1on_rule_exit([=] {",
                           text, flags=re.M)
    text, exits = re.subn(r"^(  auto onExit = on_rule_exit\(\[=\] \{\n)    exitRule\(\);\n",
                          lambda m: m.group(1) + EXIT_RULE, text, flags=re.M)
    if guards == 0:
        return text
    text, helpers = re.subn(r"^(using namespace antlr4;\n)", lambda m: m.group(1) + ON_EXIT,
                            text, count=1, flags=re.M)
    if helpers != 1 or exits == 0 or "finally(" in text:
        raise SystemExit("generate.py: the generated rules are not ANTLR 4.7.2's as expected")
    return text


def pooled(header):
    """The generated header with every rule context class pooled."""
    header, contexts = re.subn(r"^(  class  \w+Context : public antlr4::ParserRuleContext \{\n"
                               r"  public:\n)",
                               lambda m: m.group(1) + "    JOBSPEC_POOLED_RULE_CONTEXT\n",
                               header, flags=re.M)
    if contexts == 0:
        return header
    header, included = re.subn(r'^(#include "antlr4-runtime.h"\n)',
                               lambda m: m.group(1) + '#include "rule_context_pool.hpp"\n',
                               header, count=1, flags=re.M)
    if included != 1 or header.count("Context : public ") != contexts:
        raise SystemExit("generate.py: the generated contexts are not ANTLR 4.7.2's as expected")
    return header


def rewrite(path, change):
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(change(text))


def main(argv):
    cpp, command = argv[0], argv[1:]
    subprocess.run(command, check=True)
    rewrite(cpp, lambda text: guarded(lazy(text)))
    rewrite(cpp[:-len(".cpp")] + ".h", pooled)


if __name__ == "__main__":
    main(sys.argv[1:])
