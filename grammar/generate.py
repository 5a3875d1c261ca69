#!/usr/bin/python3
"""Runs ANTLR, then makes each generated recognizer build its static data (the
deserialized ATN, its DFA cache) when the first one is constructed instead of when the
library is loaded: ANTLR 4.7.2's C++ target does it in a static Initializer object, which
made every process pay for every grammar (about 2 million instructions) whether or not it
parsed anything. A function-local static in the constructor runs the same Initializer
once, thread-safely.

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


def main(argv):
    cpp, command = argv[0], argv[1:]
    subprocess.run(command, check=True)
    with open(cpp) as f:
        text = f.read()
    with open(cpp, "w") as f:
        f.write(lazy(text))


if __name__ == "__main__":
    main(sys.argv[1:])
